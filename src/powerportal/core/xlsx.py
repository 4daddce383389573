"""A streaming Excel (.xlsx) writer: sheets written row by row into the zip, in constant memory.

Every export writes its workbook here. A sheet's rows go straight into its compressed zip entry
(text inline, numbers with their format), so a workbook of a million rows takes the memory of one
row. The well-known writers took 5 µs a cell (xlsxwriter, constant-memory mode): a month of
1,000 devices by the hour is 6 million cells, half a minute; this takes under 1 µs
(``bench/report_bench.py``).
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from math import isfinite
from typing import IO, Any
from xml.sax.saxutils import escape

# Cell styles (``Sheet.row``'s ``styles``): the index of an entry of ``cellXfs`` in _STYLES.
PLAIN, HEADER, AMOUNT, TITLE, READING = 0, 1, 2, 3, 4
MAX_ROWS = 1_048_576  # a sheet's rows in Excel

_STYLES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<numFmts count="2"><numFmt numFmtId="164" formatCode="#,##0.00"/>
<numFmt numFmtId="165" formatCode="0.00"/></numFmts>
<fonts count="3"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>
<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font>
<font><b/><sz val="14"/><name val="Calibri"/><family val="2"/></font></fonts>
<fills count="3"><fill><patternFill patternType="none"/></fill><fill>
<patternFill patternType="gray125"/></fill>
<fill><patternFill patternType="solid"><fgColor rgb="FFE8EEF7"/><bgColor indexed="64"/>
</patternFill></fill></fills>
<borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border>
<border><left/><right/><top/><bottom style="thin"><color rgb="FF9AA8BC"/></bottom><diagonal/>
</border></borders>
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>
<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>
<xf numFmtId="0" fontId="1" fillId="2" borderId="1" xfId="0" applyFont="1" applyFill="1" applyBorder="1"/>
<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>
<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/>
<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>
</styleSheet>"""

_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_REL_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
_OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_OOXML = "application/vnd.openxmlformats-"


def _column(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


_COLUMNS = [_column(i) for i in range(256)]


# What XML 1.0 has no place for: the C0 controls but tab and newline (carriage return goes too),
# surrogates and U+FFFE/U+FFFF. Stored text has no controls, but a name may hold U+FFFF, and one such
# character left the whole sheet unreadable.
_NOT_XML = re.compile("[\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe\uffff]")


def _text(value: str) -> str:
    """Text for an element or a double-quoted attribute."""
    return escape(_NOT_XML.sub("", value), {'"': "&quot;"})


def _sheet_ref(name: str) -> str:
    """A sheet's name as a formula quotes it (between apostrophes, its own doubled)."""
    return _text(name).replace("'", "''")


class Sheet:
    """One sheet being written: rows in order, each a sequence of cells."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._pending: list[str] = []
        self.rows = 0
        self.width = 0

    def row(self, values: Sequence[Any], styles: Sequence[int] | int = PLAIN) -> None:
        """Add a row: text, numbers (``bool`` as text), or None for an empty cell."""
        if self.rows >= MAX_ROWS:
            raise OverflowError("a sheet holds at most 1,048,576 rows")
        self.rows += 1
        r = self.rows
        cells = []
        for i, value in enumerate(values):
            if value is None:
                continue
            style = styles if isinstance(styles, int) else styles[i]
            s = f' s="{style}"' if style else ""
            if isinstance(value, str):
                cells.append(f'<c r="{_COLUMNS[i]}{r}"{s} t="inlineStr"><is><t>{_text(value)}</t></is></c>')
            elif isinstance(value, bool):
                cells.append(
                    f'<c r="{_COLUMNS[i]}{r}"{s} t="inlineStr"><is><t>{"是" if value else "否"}</t></is></c>'
                )
            elif isfinite(value):  # NaN and infinities have no place in a cell: left empty
                cells.append(f'<c r="{_COLUMNS[i]}{r}"{s}><v>{value!r}</v></c>')
        self.width = max(self.width, len(values))
        self._pending.append(f'<row r="{r}">{"".join(cells)}</row>')
        if len(self._pending) >= 512:
            self._flush()

    def _flush(self) -> None:
        self._stream.write("".join(self._pending).encode())
        self._pending.clear()


class Workbook:
    """A workbook written to ``target`` (a path or a binary file); sheets one after another."""

    def __init__(self, target: str | IO[bytes], *, title: str = "") -> None:
        self._zip = zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=1)
        self._sheets: list[tuple[str, str | None]] = []  # name, filter range
        self._title = title

    @contextmanager
    def sheet(
        self, name: str, *, widths: Sequence[float] = (), frozen: int = 0, filtered: bool = False
    ) -> Iterator[Sheet]:
        """Write a sheet.

        ``widths``: of the columns, in characters; ``frozen``: the top rows kept in view; ``filtered``:
        an AutoFilter from row ``frozen`` (the header) down.
        """
        index = len(self._sheets) + 1
        with self._zip.open(f"xl/worksheets/sheet{index}.xml", "w", force_zip64=True) as stream:
            head = [f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet {_NS} {_REL_NS}>']
            head.append(
                '<sheetViews><sheetView workbookViewId="0"' + (' tabSelected="1"' if index == 1 else "")
            )
            if frozen:
                head.append(
                    f'><pane ySplit="{frozen}" topLeftCell="A{frozen + 1}" activePane="bottomLeft"'
                    ' state="frozen"/></sheetView></sheetViews>'
                )
            else:
                head.append("/></sheetViews>")
            head.append('<sheetFormatPr defaultRowHeight="15"/>')
            if widths:
                head.append("<cols>")
                head += [
                    f'<col min="{i}" max="{i}" width="{w}" customWidth="1"/>' for i, w in enumerate(widths, 1)
                ]
                head.append("</cols>")
            head.append("<sheetData>")
            stream.write("".join(head).encode())
            sheet = Sheet(stream)
            yield sheet
            sheet._flush()
            tail = "</sheetData>"
            area = None
            if filtered and frozen and sheet.rows >= frozen and sheet.width:
                area = f"A{frozen}:{_COLUMNS[sheet.width - 1]}{sheet.rows}"
                tail += f'<autoFilter ref="{area}"/>'
            tail += (
                '<pageMargins left="0.5" right="0.5" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>'
                "</worksheet>"
            )
            stream.write(tail.encode())
        self._sheets.append((name, area))

    def discard(self) -> None:
        """Give up a workbook left half-written (its file is thrown away): nothing more is written."""
        with suppress(ValueError, OSError):
            self._zip.close()  # refused while a sheet is open: the half-written file is deleted anyway
        self._zip.fp = None  # so that its finaliser does not write to the closed file again

    def close(self) -> None:
        """Write the workbook's parts and finish the file."""
        z = self._zip
        count = len(self._sheets)
        z.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            f'<Default Extension="rels" ContentType="{_OOXML}package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument'
            '.spreadsheetml.sheet.main+xml"/>'
            + "".join(
                f'<Override PartName="/xl/worksheets/sheet{i}.xml"'
                f' ContentType="{_OOXML}officedocument.spreadsheetml.worksheet+xml"/>'
                for i in range(1, count + 1)
            )
            + '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument'
            '.spreadsheetml.styles+xml"/>'
            '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package'
            '.core-properties+xml"/>'
            "</Types>",
        )
        z.writestr(
            "_rels/.rels",
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{_OFFICE}/officeDocument" Target="xl/workbook.xml"/>'
            '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/'
            'core-properties" Target="docProps/core.xml"/>'
            "</Relationships>",
        )
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        z.writestr(
            "docProps/core.xml",
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"'
            ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"'
            ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
            f"<dc:title>{_text(self._title)}</dc:title><dc:creator>PowerPortal</dc:creator>"
            f'<dcterms:created xsi:type="dcterms:W3CDTF">{now}</dcterms:created>'
            "</cp:coreProperties>",
        )
        sheets = "".join(
            f'<sheet name="{_text(name)}" sheetId="{i}" r:id="rId{i}"/>'
            for i, (name, _) in enumerate(self._sheets, 1)
        )
        names = "".join(
            f'<definedName name="_xlnm._FilterDatabase" localSheetId="{i}" hidden="1">'
            f"'{_sheet_ref(name)}'!{_absolute(area)}</definedName>"
            for i, (name, area) in enumerate(self._sheets)
            if area
        )
        z.writestr(
            "xl/workbook.xml",
            f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook {_NS} {_REL_NS}>'
            f"<bookViews><workbookView/></bookViews><sheets>{sheets}</sheets>"
            + (f"<definedNames>{names}</definedNames>" if names else "")
            + "</workbook>",
        )
        z.writestr(
            "xl/_rels/workbook.xml.rels",
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + "".join(
                f'<Relationship Id="rId{i}" Type="{_OFFICE}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                for i in range(1, count + 1)
            )
            + f'<Relationship Id="rId{count + 1}" Type="{_OFFICE}/styles" Target="styles.xml"/>'
            "</Relationships>",
        )
        z.writestr("xl/styles.xml", _STYLES)
        z.close()


def _absolute(area: str) -> str:
    """``A5:H100`` → ``$A$5:$H$100``."""
    out = []
    for corner in area.split(":"):
        letters = corner.rstrip("0123456789")
        out.append(f"${letters}${corner[len(letters) :]}")
    return ":".join(out)
