"""Translation catalogs: flat JSON objects of dotted keys in ``handlers/locales/<lang>.json``
plus any ``<lang>.<part>.json`` beside it (one part per area, so areas merge without conflicts).

Texts are HTML for Telegram with named ``{placeholders}`` filled by :func:`t`. Values are
inserted as given: escape anything a user typed (``html.escape``) before passing it in.
A missing key or placeholder raises ``KeyError``; there is no silent fallback.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping
from types import MappingProxyType

# A plain folder beside this module (importlib.resources would cost a cold start ~6 ms of
# imports: tempfile, shutil, zipfile); the Lambda package and the checkout both ship it so.
LOCALES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locales")

LANGUAGES: tuple[str, ...] = ("en", "de", "zh-Hans")
DEFAULT_LANGUAGE = "en"


def negotiate(language_code: str | None) -> str:
    """The catalog for a Telegram ``language_code``: zh* -> zh-Hans, de* -> de, else en."""
    code = (language_code or "").strip().lower().replace("_", "-")
    base = code.split("-", 1)[0]
    if base == "zh":
        return "zh-Hans"
    if base == "de":
        return "de"
    return DEFAULT_LANGUAGE


@functools.cache
def catalog(lang: str) -> Mapping[str, str]:
    """The read-only catalog of ``lang``, loaded once per process."""
    if lang not in LANGUAGES:
        raise KeyError(f"no catalog for language {lang!r}; have {', '.join(LANGUAGES)}")
    texts: dict[str, str] = {}
    for name in sorted(os.listdir(LOCALES)):
        if name == f"{lang}.json" or (name.startswith(f"{lang}.") and name.endswith(".json")):
            with open(os.path.join(LOCALES, name), encoding="utf-8") as file:
                part = json.load(file)
            clash = texts.keys() & part.keys()
            if clash:
                raise KeyError(f"{name} repeats keys: {sorted(clash)[:5]}")
            texts.update(part)
    return MappingProxyType(texts)


def t(lang: str, key: str, **params: object) -> str:
    """The text ``key`` in ``lang`` with its ``{placeholders}`` filled from ``params``."""
    texts = catalog(lang)
    if key not in texts:
        raise KeyError(f"no text {key!r} in the {lang} catalog")
    return texts[key].format_map(params)
