"""Fakes for tests. The Bot API the tests talk to is the emulator in ``devtools.botapi``."""
