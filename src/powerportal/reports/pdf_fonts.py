"""The PDF's Chinese font (Noto Sans SC, regular and bold), read once per process and lent to each PDF.

fpdf2's ``add_font`` parses the 10 MB font for every document (0.2 s a weight here) and its subsetting
then rebuilds the glyph names from the cmap and reads the layout tables (0.18 s a weight). Here each
weight is parsed once: a template ``TTFFont`` keeps the metrics, the cmap and the widths, which no
document changes, and the font's bytes are kept without the layout tables (fpdf2 neither shapes text
nor writes vertically here), with the glyph order. Each document gets a copy of the template with its
own subset and its own lazily opened font to subset, so documents written at once on several threads
share nothing they change, and a document's fonts cost about 0.15 s instead of 0.75 s.

This reaches into fpdf2's ``TTFFont`` (its slots and ``SubsetMap``): the fpdf2 pin moves only with
``tests/reports/test_pdf.py``.
"""

from __future__ import annotations

import copy
import io
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from fontTools import ttLib
from fpdf import FPDF
from fpdf.fonts import SubsetMap, TTFFont

from powerportal.core.config import Settings
from powerportal.core.envelope import ApiError

log = logging.getLogger("powerportal.reports.pdf")

FAMILY = "notosanssc"
# The weight's file name; the npm package keeps each in a folder of its own (400Regular/…).
FILES = {"": "NotoSansSC_400Regular.ttf", "B": "NotoSansSC_700Bold.ttf"}
FONT_MISSING = "服务器缺少生成 PDF 所需的中文字体，暂时无法导出 PDF，请联系管理员"
# Tables fpdf2 never reads: OpenType layout (no text shaping) and vertical metrics.
_UNUSED_TABLES = ("GSUB", "GPOS", "GDEF", "BASE", "STAT", "JSTF", "vhea", "vmtx", "VORG", "DSIG")


@dataclass(frozen=True, slots=True)
class _Face:
    template: TTFFont
    data: bytes
    glyph_order: tuple[str, ...]


_faces: dict[Path, _Face] = {}
_lock = threading.Lock()


def font_file(font_dir: Path, style: str) -> Path:
    """The weight's file in ``font_dir``, directly in it or in the npm package's folder for the weight."""
    name = FILES[style]
    for path in (font_dir / name, font_dir / name.split("_")[1].removesuffix(".ttf") / name):
        if path.is_file():
            return path
    log.error(
        "PDF font %s not found in %s (setting POWERPORTAL_PDF_FONT_DIR; `make install`)", name, font_dir
    )
    raise ApiError(FONT_MISSING, status_code=503)


def _read(path: Path, style: str) -> _Face:
    template = TTFFont(FPDF(), path, f"{FAMILY}{style}", style)
    glyph_order = tuple(template.ttfont.getGlyphOrder())
    template.ttfont.close()
    del template.ttfont  # its parsed outlines: each document opens the font afresh
    font = ttLib.TTFont(path, lazy=True, recalcTimestamp=False)
    for tag in _UNUSED_TABLES:
        if tag in font:
            del font[tag]
    data = io.BytesIO()
    font.save(data)
    font.close()
    return _Face(template, data.getvalue(), glyph_order)


def _face(path: Path, style: str) -> _Face:
    key = path.resolve()
    face = _faces.get(key)
    if face is not None:
        return face
    with _lock:
        face = _faces.get(key)
        if face is None:
            try:
                face = _read(key, style)
            except Exception as exc:
                log.exception("PDF font %s could not be read", key)
                raise ApiError(FONT_MISSING, status_code=503) from exc
            _faces[key] = face
    return face


def add_fonts(pdf: FPDF, font_dir: Path | None = None) -> None:
    """Make both weights of the family ``FAMILY`` available to ``pdf`` (default folder: the setting)."""
    folder = Settings().pdf_font_dir if font_dir is None else font_dir
    for style in FILES:
        face = _face(font_file(folder, style), style)
        font = copy.copy(face.template)
        font.i = len(pdf.fonts) + 1
        font.ttfont = ttLib.TTFont(io.BytesIO(face.data), lazy=True, recalcTimestamp=False)
        font.ttfont.setGlyphOrder(list(face.glyph_order))
        font.missing_glyphs = []
        font.biggest_size_pt = 0
        font._hbfont = None
        font.subset = SubsetMap(font)
        pdf.fonts[font.fontkey] = font


def widths(pdf: FPDF, style: str) -> dict[int, float]:
    """The weight's advance widths by code point, in thousandths of the type size."""
    font = pdf.fonts[f"{FAMILY}{style}"]
    assert isinstance(font, TTFFont)  # noqa: S101 - add_fonts put it there
    return font.cw
