"""What the alarm, availability and control report tests share: the export read back, the refusals."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import unquote

import openpyxl

from powerportal.core.timeutil import CUSTOMER_TZ, utcnow
from tests.conftest import Harness

R = "/api/CustomerReport"


def last_month() -> tuple[datetime, str, str]:
    """The previous local month: its first instant (UTC), its first and its last day."""
    first_this = utcnow().astimezone(CUSTOMER_TZ).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    first = (first_this - timedelta(days=1)).replace(day=1)
    return first, first.date().isoformat(), (first_this - timedelta(days=1)).date().isoformat()


async def export(h: Harness, path: str, body: dict[str, Any], token: str) -> tuple[Any, Any]:
    """The export's answer and its workbook (None when the answer is the error envelope)."""
    response = await h.client.post(f"{R}/{path}", json=body, headers={"SYSTOKEN": token})
    if response.headers["content-type"].startswith("application/json"):
        return response, None
    return response, openpyxl.load_workbook(io.BytesIO(response.content))


def file_name(response: Any) -> str:
    """The export's file name as the browser saves it."""
    return unquote(response.headers["content-disposition"].split("filename*=UTF-8''")[1])


def table(sheet: Any, header: str) -> tuple[list[Any], list[list[Any]]]:
    """A sheet's table: the row whose first cell is ``header``, and every row below it."""
    rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    at = next(i for i, r in enumerate(rows) if r[0] == header)
    return rows[at], rows[at + 1 :]


async def refusals(h: Harness, get: str, body: dict[str, Any], token: str) -> None:
    """Wrong types, reversed or overlong ranges, bad dates and unknown ids: a Chinese refusal, no data."""
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({**body, "project_sysno": "1"}, 400, "项目编号应为整数"),
        ({**body, "project_sysno": 0}, 400, "项目编号过小，不能小于 1"),
        ({**body, "view": "week"}, 400, "查看方式取值不在允许范围内"),
        ({**body, "date": "2026/01/01"}, 400, "日期格式不正确"),
        ({**body, "date": "2026-13-40"}, 400, "日期无效"),
        ({**body, "view": "year", "date": "9999-06-01"}, 400, "日期无效"),  # its end would pass year 9999
        ({**body, "format": "doc"}, 400, "导出格式取值不在允许范围内"),
        (
            {**body, "view": "range", "date": "2026-02-01", "end_date": "2026-01-01"},
            400,
            "结束日期不能早于开始日期",
        ),
        ({**body, "view": "range", "date": "2025-01-01", "end_date": "2026-01-02"}, 400, "最多 366 天"),
        ({**body, "project_sysno": 987654321}, 404, "项目不存在或无权访问"),
        ({**body, "building_sysno": 987654321}, 404, "建筑不存在或无权访问"),
    ]
    for sent, status, words in cases:
        answer = await h.post(f"{R}/{get}", sent, token)
        assert answer["statusCode"] == status and answer["data"] is None, (sent, answer)
        assert words in answer["message"], (sent, answer)
    no_date = {k: v for k, v in body.items() if k != "date"}
    assert (await h.post(f"{R}/{get}", no_date, token))["statusCode"] == 400
    assert (await h.post(f"{R}/{get}", body))["statusCode"] == 401


async def refused(h: Harness, get: str, export_path: str, bodies: list[dict[str, Any]], token: str) -> None:
    """Each body is refused as not found (the report and its export), revealing nothing."""
    for sent in bodies:
        answer = await h.post(f"{R}/{get}", sent, token)
        assert answer["statusCode"] == 404 and answer["data"] is None, (sent, answer)
        assert answer["message"].endswith("不存在或无权访问"), answer
        response, book = await export(h, export_path, sent, token)
        assert book is None and response.json()["statusCode"] == 404, response.text
