"""The one rule for text from outside: no control or bidi characters, NFC, a length cap.

Users are refused (their form names the field); gateways are cleaned and counted; and whatever text
is stored anyway (an old row, a direct write) leaves the API cleaned, never as a 500.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import orjson

# C0 controls but tab, newline and carriage return; DEL and the C1 controls; the bidi controls and
# marks (U+061C, U+200E-200F, U+202A-202E, U+2066-2069) that make text read other than it is stored.
# Written as character-class bodies that Python and JSON Schema (ECMA-262) read alike, so that the
# OpenAPI document states the very rule the validators apply (core/schemas).
CONTROLS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# In a one-line field (a name, a serial number) line breaks and tabs are forbidden too.
LINE_BREAKS = r"\t\n\r\u2028\u2029"
FORBIDDEN = re.compile(f"[{CONTROLS}]")
FORBIDDEN_IN_LINE = re.compile(f"[{CONTROLS}{LINE_BREAKS}]")
# The same characters as they appear in JSON that orjson wrote: escaped C0 controls (\u00XX, \b, \f),
# raw DEL, and the UTF-8 bytes of the C1 and bidi controls.
_IN_JSON = re.compile(
    rb"\\u00[01][0-9a-f]|\\[bf]|\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]"
)


def refused(text: str, *, one_line: bool) -> bool:
    """Whether text holds a character the rule refuses."""
    return (FORBIDDEN_IN_LINE if one_line else FORBIDDEN).search(text) is not None


def clean(text: str, max_length: int | None = None, *, one_line: bool = True) -> str:
    """The text with refused characters removed (line breaks become spaces), NFC, stripped, capped."""
    if one_line:
        text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")
    text = (FORBIDDEN_IN_LINE if one_line else FORBIDDEN).sub("", text)
    text = unicodedata.normalize("NFC", text).strip()
    return text[:max_length] if max_length is not None else text


def normalised(text: str) -> str:
    """NFC (what is stored, so that the same name typed two ways is one name)."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def clean_json(body: bytes) -> bytes:
    """A JSON answer with every string cleaned; untouched (and cheap) when none needs it."""
    # Every match of _IN_JSON begins with one of these bytes, each the lead byte of its UTF-8 sequence
    # (never inside another character): a body holding none of them, as most answers, needs no look.
    # Five memchr scans cost a sixth of the regular expression's walk over the body.
    if not (b"\\" in body or b"\x7f" in body or b"\xc2" in body or b"\xd8" in body or b"\xe2" in body) or (
        _IN_JSON.search(body) is None
    ):
        return body
    return orjson.dumps(_clean_value(orjson.loads(body)), option=orjson.OPT_NON_STR_KEYS)


def _clean_value(value: Any) -> Any:
    if isinstance(value, str):
        return clean(value, one_line=False) if FORBIDDEN.search(value) else value
    if isinstance(value, list):
        return [_clean_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _clean_value(v) for k, v in value.items()}
    return value
