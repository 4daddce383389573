"""The A4 PDF of a report, read back with poppler's tools (text, page sizes, fonts, images)."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest

from powerportal.brands.service import ASSETS_DIR
from powerportal.core.envelope import ApiError
from powerportal.core.timeutil import CUSTOMER_TZ
from powerportal.reports.document import Chart, Column, Document, Series, Table
from powerportal.reports.pdf import write_pdf
from tests.conftest import require_service

POPPLER = ("pdftotext", "pdfinfo", "pdffonts", "pdfimages")
LOGO = ASSETS_DIR / "logo-0.svg"
PRODUCT = "智慧用电云平台"
GENERATED = datetime(2026, 11, 26, 9, 30, 5, tzinfo=CUSTOMER_TZ)
PORTRAIT = "595.28 x 841.89"
LANDSCAPE = "841.89 x 595.28"


@pytest.fixture(autouse=True)
def poppler() -> None:
    """Every test reads the PDF back with poppler-utils (apt-get install poppler-utils)."""
    require_service(all(shutil.which(tool) for tool in POPPLER), "poppler-utils (pdftotext, pdffonts …)")


def run(*command: str | Path) -> str:
    return subprocess.run([str(c) for c in command], check=True, capture_output=True, text=True).stdout  # noqa: S603


@dataclass
class Written:
    path: Path
    pages: int

    def texts(self, *, layout: bool = False) -> list[str]:
        """The text of each page, in the order it was drawn (or laid out as on the page)."""
        options = ["-layout"] if layout else ["-raw"]
        return run("pdftotext", *options, self.path, "-").split("\f")[: self.pages]

    def info(self) -> str:
        return run("pdfinfo", self.path)


def write(document: Document, path: Path, *, logo: Path | None = LOGO) -> Written:
    with path.open("wb") as out:
        pages = write_pdf(document, out, product_name=PRODUCT, logo=logo, generated_at=GENERATED)
    return Written(path, pages)


COLUMNS = [
    Column("设备名称", "text", 14),
    Column("备注", "text", 24),
    Column("次数", "int", 6),
    Column("电量(kWh)", "kwh", 12),
    Column("占比", "percent", 8),
    Column("在线时长", "duration", 12),
    Column("电费(元)", "money", 12),
]


def row(i: int) -> list[object]:
    """Row ``i``: key 回路0001…; every 50th a remark long enough to wrap; a money value of its own."""
    remark = f"{'这条备注很长需要在单元格里换行显示' * 4} 尾{i:04d}" if i % 50 == 7 else f"{i % 9}号配电箱"
    return [f"回路{i:04d}", remark, i * 1000, 1234567.891 + i, 12.3456, 93784 + i * 60, i + 0.25]


def money(i: int) -> str:
    return f"{i + 0.25:,.2f}"


def document(rows: int, *, columns: list[Column] = COLUMNS, charts: list[Chart] | None = None) -> Document:
    return Document(
        name="能耗报表",
        project_name="示范园区",
        filters=[("统计周期", "2026-10-01 至 2026-10-31"), ("统计方式", "按设备")],
        summary=[("总电量(kWh)", 1234567.891), ("设备数", 2000), ("同比", "12.30%")],
        tables=[Table("按设备", columns, [row(i) for i in range(1, rows + 1)])],
        charts=[] if charts is None else charts,
        stem="能耗报表",
    )


CHARTS = [
    Chart(
        "逐日用电量",
        "bar",
        [f"10-{d:02d}" for d in range(1, 32)],
        [Series("本期", [d * 1.5 for d in range(31)])],
        "kWh",
    ),
    Chart(
        "分时电量",
        "line",
        [f"{h:02d}时" for h in range(24)],
        [Series("电量", [h % 7 for h in range(24)])],
        "kWh",
    ),
    Chart("建筑占比", "pie", ["一号楼", "二号楼", "三号楼"], [Series("电量", [50, 30, 20])], "kWh"),
]


@pytest.fixture(scope="module")
def long_pdf(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Written]:
    """2,000 rows after a chart, in portrait."""
    yield write(document(2000, charts=CHARTS[:1]), tmp_path_factory.mktemp("pdf") / "long.pdf")


def test_title_block_comes_back_in_chinese(long_pdf: Written) -> None:
    first = long_pdf.texts()[0]
    for text in ("能耗报表 · 示范园区", "统计周期：2026-10-01 至 2026-10-31", "统计方式：按设备"):
        assert text in first
    for text in (
        "总电量(kWh)",
        "1,234,567.89",
        "设备数",
        "2000",
        "同比",
        "12.30%",
        "逐日用电量",
        "单位：kWh",
    ):
        assert text in first


def test_every_page_has_the_header_the_table_header_and_the_footer(long_pdf: Written) -> None:
    pages = long_pdf.texts()
    assert long_pdf.pages == len(pages) > 40
    for number, text in enumerate(pages, start=1):
        assert PRODUCT in text
        assert f"第 {number} 页 / 共 {long_pdf.pages} 页" in text
        assert "生成时间：2026-11-26 09:30:05" in text
        if "回路" in text:
            assert all(column.title in text for column in COLUMNS), number
    assert "按设备（续）" in pages[-1]


def test_every_row_appears_once_and_whole_on_one_page(long_pdf: Written) -> None:
    pages = long_pdf.texts()
    where: dict[str, list[int]] = {}
    for number, text in enumerate(pages):
        for key in re.findall(r"回路\d{4}", text):
            where.setdefault(key, []).append(number)
    assert len(where) == 2000
    for i in range(1, 2001):
        (page,) = where[f"回路{i:04d}"]
        assert re.search(rf"(?<![\d,]){re.escape(money(i))}(?!\d)", pages[page]), i
        if i % 50 == 7:
            assert f"尾{i:04d}" in pages[page], i


def test_numbers_are_right_aligned_and_formatted_by_kind(tmp_path: Path) -> None:
    written = write(document(3), tmp_path / "three.pdf")
    page = written.texts(layout=True)[0]
    lines = [line for line in page.splitlines() if "回路0002" in line]
    assert len(lines) == 1
    assert re.search(
        r"回路0002\s+2号配电箱\s+2000\s+1,234,569.89\s+12.35%\s+1天2小时5分\s+2.25\s*$", lines[0]
    )
    header = next(line for line in page.splitlines() if "设备名称" in line)
    numbers = next(line for line in page.splitlines() if "回路0001" in line)
    # right-aligned: the header's last title and the figures under it end in the same place
    assert abs(len(header.rstrip()) - len(numbers.rstrip())) <= 1


def test_a_long_text_wraps_inside_its_row(tmp_path: Path) -> None:
    written = write(document(7), tmp_path / "wrap.pdf")
    text = written.texts()[0]
    assert "尾0007" in text
    assert text.count("这条备注很长") >= 3  # shown on more lines than one, none of them lost


def test_orientation_follows_the_columns_widths(tmp_path: Path) -> None:
    assert PORTRAIT in write(document(10), tmp_path / "p.pdf").info()
    wide = [
        *COLUMNS,
        Column("表底读数", "reading", 14),
        Column("尖(kWh)", "kwh", 12),
        Column("峰(kWh)", "kwh", 12),
    ]
    written = write(document(10, columns=wide), tmp_path / "l.pdf")
    assert LANDSCAPE in written.info()
    assert "表底读数" in written.texts()[0]


def test_fonts_are_embedded_subsets(long_pdf: Written) -> None:
    rows = run("pdffonts", long_pdf.path).splitlines()[2:]
    assert len(rows) == 2  # regular and bold, nothing else (no unembedded core font)
    for line in rows:
        name, *_, emb, sub, uni, _obj, _gen = line.split()
        assert re.fullmatch(r"[A-Z]{6}\+NotoSansSC(Bold)?", name), line
        assert (emb, sub, uni) == ("yes", "yes", "yes"), line


def test_charts_are_vector_graphics(tmp_path: Path) -> None:
    written = write(document(5, charts=CHARTS), tmp_path / "charts.pdf")
    assert run("pdfimages", "-list", written.path).splitlines()[2:] == []
    text = "\n".join(written.texts())
    for label in (
        "逐日用电量",
        "本期",
        "10-01",
        "分时电量",
        "00时",
        "建筑占比",
        "一号楼",
    ):
        assert label in text
    assert re.search(r"50.00 kWh\s+50.0%", text)
    assert re.search(r"\b40\b", text)  # a tick of the bar chart's value axis (0 … 50)


def test_an_empty_table_says_so(tmp_path: Path) -> None:
    empty = Document("告警报表", "示范园区", [], [], [Table("告警", COLUMNS, [])])
    written = write(empty, tmp_path / "empty.pdf")
    assert written.pages == 1
    assert "无数据" in written.texts()[0]
    assert "设备名称" in written.texts()[0]


def test_a_logo_that_cannot_be_read_is_left_out(tmp_path: Path) -> None:
    broken = tmp_path / "broken.svg"
    broken.write_text("<svg><rect")
    not_png = tmp_path / "broken.png"
    not_png.write_text("not a png")
    for logo in (broken, not_png, tmp_path / "absent.svg", None):
        written = write(document(3), tmp_path / "no-logo.pdf", logo=logo)
        assert PRODUCT in written.texts()[0]


def test_a_missing_font_is_a_chinese_business_error(tmp_path: Path) -> None:
    with pytest.raises(ApiError) as caught, (tmp_path / "x.pdf").open("wb") as out:
        write_pdf(document(3), out, product_name=PRODUCT, logo=LOGO, font_dir=tmp_path)
    assert caught.value.status_code == 503
    assert "字体" in caught.value.message


def test_documents_written_at_once_on_threads_keep_their_own_text(tmp_path: Path) -> None:
    def one(n: int) -> tuple[int, list[str]]:
        doc = document(40 + n)
        doc.project_name = f"项目{'甲乙丙丁'[n]}"
        written = write(doc, tmp_path / f"t{n}.pdf")
        return n, written.texts()

    with ThreadPoolExecutor(4) as pool:
        for n, texts in pool.map(one, range(4)):
            text = "\n".join(texts)
            assert f"能耗报表 · 项目{'甲乙丙丁'[n]}" in text
            assert len(set(re.findall(r"回路\d{4}", text))) == 40 + n


def test_fifty_pages_take_less_than_ten_seconds(tmp_path: Path) -> None:
    wide = [
        *COLUMNS,
        Column("表底读数", "reading", 14),
        Column("尖(kWh)", "kwh", 12),
        Column("峰(kWh)", "kwh", 12),
    ]
    doc = document(1500, columns=wide, charts=CHARTS[:1])
    doc.tables[0].rows = [[*r, 98765.4321, 1.5, 2.5] for r in doc.tables[0].rows]
    started = time.perf_counter()
    written = write(doc, tmp_path / "fifty.pdf")
    seconds = time.perf_counter() - started
    assert written.pages >= 50
    assert seconds < 10, seconds
