"""Test tooling for the engine, never shipped: random playouts (``simulate``, run as
``python -m devtools.simulate``), the invariants they check after every step, the seat policies
they play with. The engine itself never imports this package."""
