"""core/xlsx writes workbooks that a spreadsheet reads back as written."""

from __future__ import annotations

import io
import zipfile
from xml.etree import ElementTree

import openpyxl
import pytest

from powerportal.core import xlsx


def test_a_workbook_reads_back_as_written() -> None:
    target = io.BytesIO()
    book = xlsx.Workbook(target, title="能耗报表 <测试>")
    with book.sheet("汇总", widths=[20, 12], frozen=2) as sheet:
        sheet.row(["能耗报表 · 科创园 & <B座>"], xlsx.TITLE)
        sheet.row(["名称", "电量(kWh)"], xlsx.HEADER)
        sheet.row(["照明\x07回路", 12.345], [0, xlsx.AMOUNT])
        sheet.row(["总进线", True, None, float("nan"), float("inf"), 7])
    with book.sheet("明细", frozen=1, filtered=True) as sheet:
        sheet.row(["名称", "时间", "电量(kWh)"], xlsx.HEADER)
        for hour in range(24):
            sheet.row(["照明回路", f"2026-11-25 {hour:02d}:00", hour / 10], [0, 0, xlsx.AMOUNT])
    book.close()

    read = openpyxl.load_workbook(io.BytesIO(target.getvalue()))
    assert read.sheetnames == ["汇总", "明细"]
    summary = read["汇总"]
    assert summary["A1"].value == "能耗报表 · 科创园 & <B座>"
    assert summary["A1"].font.b and summary["A2"].font.b
    assert summary["A3"].value == "照明回路"  # a control character never reaches the file
    assert summary["B3"].value == 12.345 and summary["B3"].number_format == "#,##0.00"
    assert [c.value for c in summary[4]][:6] == ["总进线", "是", None, None, None, 7]
    assert summary.freeze_panes == "A3" and summary.column_dimensions["A"].width == 20
    detail = read["明细"]
    assert detail.max_row == 25 and detail["C25"].value == pytest.approx(2.3)
    assert detail.freeze_panes == "A2" and detail.auto_filter.ref == "A1:C25"
    assert read.properties.title == "能耗报表 <测试>"


def test_text_xml_has_no_place_for_is_left_out_and_quotes_stay_text() -> None:
    """A U+FFFF in one device's name made the whole sheet unreadable; a quote in a sheet name broke it."""
    target = io.BytesIO()
    book = xlsx.Workbook(target, title='报表 "甲"')
    with book.sheet('O\'Brien "楼"', frozen=1, filtered=True) as sheet:
        sheet.row(["名称", "备注"], xlsx.HEADER)
        sheet.row(["泵房\uffff一号\ufffe", '=HYPERLINK("http://x")'])
    book.close()
    read = openpyxl.load_workbook(io.BytesIO(target.getvalue()))
    only = read[read.sheetnames[0]]
    assert read.sheetnames == ['O\'Brien "楼"']
    assert only["A2"].value == "泵房一号"
    assert only["B2"].value == '=HYPERLINK("http://x")' and only["B2"].data_type == "s"  # text, not a formula
    assert only.auto_filter.ref == "A1:B2"
    with zipfile.ZipFile(io.BytesIO(target.getvalue())) as z:
        workbook = ElementTree.fromstring(z.read("xl/workbook.xml"))  # noqa: S314 (our own file)
    (defined,) = [e for e in workbook.iter() if e.tag.endswith("definedName")]
    assert defined.text == "'O''Brien \"楼\"'!$A$1:$B$2"
    assert read.properties.title == '报表 "甲"'


def test_a_sheet_holds_no_more_rows_than_excel_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xlsx, "MAX_ROWS", 3)
    book = xlsx.Workbook(io.BytesIO())
    with pytest.raises(OverflowError), book.sheet("明细") as sheet:
        for i in range(4):
            sheet.row([i])
