"""The report centre and scheduled reports, as two customers, racing workers and an SMTP server see them."""

from __future__ import annotations

import asyncio
import email
import io
import socket
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from email.message import Message
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import openpyxl
import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select, update

from powerportal.alarms.models import CustomerNotice
from powerportal.alarms.notices import REPORT
from powerportal.projects.models import Project
from powerportal.reports import centre
from powerportal.reports.models import ReportJob, ReportSubscription
from powerportal.reports.subscriptions import due_period
from powerportal.reports.worker import TIMED_OUT, ReportWorker
from tests.conftest import Harness, make_settings, start_harness
from tests.factories import Account, make_account, make_building, make_device, make_gateway, make_project

R = "/api/CustomerReport"
TODAY = datetime.now(ZoneInfo("Asia/Shanghai")).date().isoformat()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Inbox:
    """An aiosmtpd handler keeping every message it is sent."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"


@pytest.fixture
def inbox() -> Any:
    handler = Inbox()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield handler, controller.port
    controller.stop()


@pytest.fixture
async def centre_harness(database_url: str, tmp_path: Path, inbox: Any) -> AsyncIterator[Harness]:
    _, port = inbox
    settings = make_settings(
        database_url,
        report_dir=tmp_path / "reports",
        smtp_host="127.0.0.1",
        smtp_port=port,
        smtp_from="reports@powerportal.test",
    )
    async for h in start_harness(settings):
        yield h


async def project_with_devices(h: Harness, account: Account) -> int:
    project = await make_project(h, account.sysno)
    building = await make_building(h, project)
    gateway = await make_gateway(h, project, building)
    for _ in range(3):
        await make_device(h, gateway, project, rated_current=63)
    return project


def energy_query(project: int, **more: Any) -> dict[str, Any]:
    return {"project_sysno": project, "view": "day", "date": TODAY, **more}


async def jobs(h: Harness, token: str, **query: Any) -> list[dict[str, Any]]:
    body = await h.post(f"{R}/GetReportJobList", {"pageIndex": 1, "pageSize": 50, **query}, token)
    assert body["statusCode"] == 200, body
    rows: list[dict[str, Any]] = body["data"]["dataSource"]
    return rows


async def test_a_job_is_written_in_the_background_listed_downloaded_and_deleted_by_its_owner_alone(
    centre_harness: Harness,
) -> None:
    h = centre_harness
    a = await make_account(h, "13900000041")
    b = await make_account(h, "13900000042")
    project = await project_with_devices(h, a)

    body = await h.post(f"{R}/CreateReportJob", {"kind": "energy", "query": energy_query(project)}, a.token)
    assert body["statusCode"] == 200, body
    job = body["data"]
    assert job["status"] == "queued" and job["title"].startswith("能耗报表 · ") and job["format"] == "xlsx"
    pdf = await h.post(
        f"{R}/CreateReportJob", {"kind": "energy", "query": energy_query(project, format="pdf")}, a.token
    )
    assert pdf["statusCode"] == 200 and pdf["data"]["format"] == "pdf"

    worker = ReportWorker(h.ctx)
    assert sorted(await worker.tick()) == sorted([job["sysno"], pdf["data"]["sysno"]])
    listed = {row["sysno"]: row for row in await jobs(h, a.token)}
    done = listed[job["sysno"]]
    assert (done["status"], done["status_name"], done["progress"]) == ("done", "已完成", 100)
    assert done["file_name"].startswith("能耗报表_") and done["file_name"].endswith(".xlsx")
    assert done["size"] > 0 and done["expire_time"] is not None

    response = await h.client.post(
        f"{R}/DownloadReportFile", json={"sysno": job["sysno"]}, headers={"SYSTOKEN": a.token}
    )
    assert response.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["汇总", "明细"]
    assert len(list(book["明细"].iter_rows(min_row=2))) == 3 * 24
    # the file stays for another download
    again = await h.client.post(
        f"{R}/DownloadReportFile", json={"sysno": job["sysno"]}, headers={"SYSTOKEN": a.token}
    )
    assert again.content == response.content
    pdf_file = await h.client.post(
        f"{R}/DownloadReportFile", json={"sysno": pdf["data"]["sysno"]}, headers={"SYSTOKEN": a.token}
    )
    assert pdf_file.headers["content-type"] == "application/pdf" and pdf_file.content.startswith(b"%PDF")

    # another customer sees nothing and can touch nothing
    assert await jobs(h, b.token) == []
    refused = await h.post(f"{R}/DownloadReportFile", {"sysno": job["sysno"]}, b.token)
    assert (refused["statusCode"], refused["message"]) == (404, "报表不存在或无权访问")
    refused = await h.post(f"{R}/DeleteReportJob", {"sysnos": [job["sysno"]]}, b.token)
    assert refused["statusCode"] == 404
    refused = await h.post(
        f"{R}/CreateReportJob", {"kind": "energy", "query": energy_query(project)}, b.token
    )
    assert (refused["statusCode"], refused["message"]) == (404, "项目不存在或无权访问")
    assert await jobs(h, b.token) == []

    # deleted with its file
    path = Path(h.ctx.settings.report_dir) / f"{job['sysno']}.xlsx"
    assert path.exists()
    deleted = await h.post(f"{R}/DeleteReportJob", {"sysnos": [job["sysno"]]}, a.token)
    assert deleted["statusCode"] == 200
    assert not path.exists()
    assert [row["sysno"] for row in await jobs(h, a.token)] == [pdf["data"]["sysno"]]


async def test_bad_requests_are_refused_in_chinese_and_queue_nothing(centre_harness: Harness) -> None:
    h = centre_harness
    a = await make_account(h, "13900000043")
    project = await project_with_devices(h, a)
    theirs = await make_project(h, (await make_account(h, "13900000044")).sysno)
    their_building = await make_building(h, theirs)
    their_device = await make_device(h, await make_gateway(h, theirs, their_building), theirs)
    cases = [
        ({"kind": "nosuch", "query": energy_query(project)}, "类型取值不在允许范围内"),
        # Another customer's building or device under one's own project: refused now, not in a failed job.
        ({"kind": "energy", "query": energy_query(project, building_sysno=their_building)}, "建筑不存在"),
        ({"kind": "energy", "query": energy_query(project, device_sysnos=[their_device])}, "设备不存在"),
        ({"kind": "alarm", "query": energy_query(project, building_sysno=their_building)}, "建筑不存在"),
        ({"kind": "control", "query": energy_query(project, building_sysno=their_building)}, "建筑不存在"),
        ({"kind": "energy", "query": energy_query(project, date="2026-13-45x")}, "日期"),
        ({"kind": "energy", "query": energy_query(project, format="doc")}, "导出格式"),
        ({"kind": "energy", "query": {"view": "day"}}, "请填写项目编号"),
        ({"kind": "energy", "query": energy_query(999_999)}, "项目不存在或无权访问"),
        ({"kind": "energy", "query": "x"}, "查询条件应为对象"),
    ]
    for body, message in cases:
        answer = await h.post(f"{R}/CreateReportJob", body, a.token)
        assert answer["statusCode"] != 200 and answer["message"].startswith(message), (body, answer)
    assert await jobs(h, a.token) == []
    for _ in range(centre.MAX_ACTIVE):
        assert (
            await h.post(f"{R}/CreateReportJob", {"kind": "energy", "query": energy_query(project)}, a.token)
        )["statusCode"] == 200
    refused = await h.post(
        f"{R}/CreateReportJob", {"kind": "energy", "query": energy_query(project)}, a.token
    )
    assert refused["message"] == f"最多同时生成 {centre.MAX_ACTIVE} 个报表，请等待当前报表完成"
    unknown = await h.post(f"{R}/DownloadReportFile", {"sysno": 424242}, a.token)
    assert unknown["statusCode"] == 404
    waiting = (await jobs(h, a.token))[0]
    early = await h.post(f"{R}/DownloadReportFile", {"sysno": waiting["sysno"]}, a.token)
    assert early["message"] == "报表尚未生成完成"


async def test_a_job_survives_its_worker_dying_fails_when_lost_twice_or_too_slow_and_expires(
    centre_harness: Harness,
) -> None:
    h = centre_harness
    a = await make_account(h, "13900000044")
    project = await project_with_devices(h, a)
    first = (
        await h.post(f"{R}/CreateReportJob", {"kind": "energy", "query": energy_query(project)}, a.token)
    )["data"]["sysno"]
    second = (
        await h.post(f"{R}/CreateReportJob", {"kind": "energy", "query": energy_query(project)}, a.token)
    )["data"]["sysno"]
    now = datetime.now(UTC)
    # Both were claimed by a process that died: the first once, the second already on its second try.
    async with h.ctx.sessions() as session:
        await session.execute(
            update(ReportJob)
            .where(ReportJob.sysno == first)
            .values(status="running", attempts=1, heartbeat=now, start_time=now)
        )
        await session.execute(
            update(ReportJob)
            .where(ReportJob.sysno == second)
            .values(status="running", attempts=2, heartbeat=now, start_time=now)
        )
        await session.commit()
    # Still beating: nobody touches them.
    assert await ReportWorker(h.ctx, clock=lambda: now + timedelta(seconds=5)).tick() == []
    later = now + timedelta(seconds=4 * h.ctx.settings.report_heartbeat_seconds + 1)
    assert await ReportWorker(h.ctx, clock=lambda: later).tick() == [first]
    listed = {row["sysno"]: row for row in await jobs(h, a.token)}
    assert listed[first]["status"] == "done"
    assert (listed[second]["status"], listed[second]["detail"]) == ("failed", centre.LOST)

    # A job that outlives the timeout fails; it never hangs.
    h.ctx.settings.report_job_timeout_seconds = 0.000_001
    slow = (
        await h.post(f"{R}/CreateReportJob", {"kind": "energy", "query": energy_query(project)}, a.token)
    )["data"]["sysno"]
    await ReportWorker(h.ctx).tick()
    row = next(r for r in await jobs(h, a.token) if r["sysno"] == slow)
    assert (row["status"], row["detail"]) == ("failed", TIMED_OUT)
    assert not list(Path(h.ctx.settings.report_dir).glob(f"{slow}*"))

    # Kept report_keep_days, then gone with the file.
    path = Path(h.ctx.settings.report_dir) / f"{first}.xlsx"
    assert path.exists()
    expired = later + timedelta(days=h.ctx.settings.report_keep_days, seconds=1)
    await ReportWorker(h.ctx, clock=lambda: expired).tick()
    assert await jobs(h, a.token) == [] and not path.exists()


async def test_a_worker_stopped_mid_job_queues_it_again_at_once(centre_harness: Harness) -> None:
    h = centre_harness
    a = await make_account(h, "13900000045")
    project = await project_with_devices(h, a)
    sysno = (
        await h.post(f"{R}/CreateReportJob", {"kind": "energy", "query": energy_query(project)}, a.token)
    )["data"]["sysno"]
    worker = ReportWorker(h.ctx)
    started = asyncio.Event()
    real_set = worker._set

    async def slow_set(job: ReportJob, **values: object) -> bool:
        if not started.is_set():  # the first progress report waits to be cancelled
            started.set()
            await asyncio.sleep(30)
        return await real_set(job, **values)

    worker._set = slow_set  # type: ignore[method-assign]  # holds the job at its first progress report
    task = asyncio.create_task(worker.tick())
    await asyncio.wait_for(started.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    worker._set = real_set  # type: ignore[method-assign]
    (row,) = await jobs(h, a.token)
    assert (row["sysno"], row["status"], row["progress"]) == (sysno, "queued", 0)
    assert await ReportWorker(h.ctx).tick() == [sysno]


async def subscribe(h: Harness, token: str, project: int, **more: Any) -> dict[str, Any]:
    body = {
        "name": "日报",
        "kind": "energy",
        "frequency": "day",
        "query": {"project_sysno": project, "group": "device"},
        "emails": ["Boss@Example.com", "finance@example.com"],
        **more,
    }
    answer = await h.post(f"{R}/SaveReportSubscription", body, token)
    assert answer["statusCode"] == 200, answer
    saved: dict[str, Any] = answer["data"]
    return saved


async def test_a_subscription_is_reported_once_per_period_by_racing_workers_mailed_and_noticed(
    centre_harness: Harness, inbox: Any
) -> None:
    h = centre_harness
    handler, _ = inbox
    a = await make_account(h, "13900000046")
    b = await make_account(h, "13900000047")
    project = await project_with_devices(h, a)
    saved = await subscribe(h, a.token, project)
    assert saved["emails"] == ["boss@example.com", "finance@example.com"]
    assert (saved["frequency_name"], saved["kind_name"]) == ("每日", "能耗报表")
    assert "date" not in saved["query"] and saved["query"]["project_sysno"] == project
    listed = await h.post(f"{R}/GetReportSubscriptionList", {"pageIndex": 1, "pageSize": 10}, b.token)
    assert listed["data"]["dataSource"] == []

    # Made just now: the day before does not count; tomorrow 01:00 local (the delay) reports today.
    now = datetime.now(UTC)
    delay = timedelta(minutes=h.ctx.settings.report_schedule_delay_minutes)
    assert await ReportWorker(h.ctx, clock=lambda: now).schedule(now) == []
    key, end, fields = due_period("day", "Asia/Shanghai", end_of_today(now) + delay, delay)
    due = end + delay
    workers = [ReportWorker(h.ctx, clock=lambda: due, name=f"w{i}") for i in range(3)]
    results = await asyncio.gather(*(w.tick() for w in workers))
    written = [sysno for found in results for sysno in found]
    assert len(written) == 1
    async with h.ctx.sessions() as session:
        (job,) = list(await session.scalars(select(ReportJob)))
        assert (job.period, job.status, job.query["date"]) == (key, "done", fields["date"])
        notes = list(
            await session.scalars(select(CustomerNotice).where(CustomerNotice.notice_type == REPORT))
        )
    assert [(n.customer_sysno, n.source_sysno) for n in notes] == [(a.sysno, job.sysno)]
    assert "已生成" in notes[0].notice_detail
    (message,) = handler.messages
    assert message["To"] == "boss@example.com, finance@example.com"
    attachments = [part for part in message.walk() if part.get_filename()]
    assert len(attachments) == 1 and attachments[0].get_filename().endswith(".xlsx")
    book = openpyxl.load_workbook(io.BytesIO(attachments[0].get_payload(decode=True)))
    assert book.sheetnames == ["汇总", "明细"]
    # Ticking again, anywhere, reports nothing more for that day; nor once its file has expired.
    assert await ReportWorker(h.ctx, clock=lambda: due + timedelta(hours=3)).tick() == []
    async with h.ctx.sessions() as session:
        await session.execute(update(ReportJob).values(expire_time=due))
        await session.commit()
    assert await ReportWorker(h.ctx, clock=lambda: due + timedelta(hours=4)).tick() == []  # expires it
    assert await ReportWorker(h.ctx, clock=lambda: due + timedelta(hours=5)).tick() == []
    assert len(handler.messages) == 1
    async with h.ctx.sessions() as session:
        assert list(await session.scalars(select(ReportJob))) == []  # expired, and not made again


def end_of_today(now: datetime) -> datetime:
    local = now.astimezone(ZoneInfo("Asia/Shanghai"))
    return datetime(local.year, local.month, local.day, tzinfo=local.tzinfo) + timedelta(days=1)


async def test_a_subscriber_who_lost_the_project_gets_no_report_and_the_subscription_stops(
    centre_harness: Harness, inbox: Any
) -> None:
    h = centre_harness
    handler, _ = inbox
    a = await make_account(h, "13900000048")
    b = await make_account(h, "13900000049")
    project = await project_with_devices(h, a)
    saved = await subscribe(
        h, a.token, project, frequency="week", query={"project_sysno": project, "format": "pdf"}
    )
    async with h.ctx.sessions() as session:  # the project now belongs to someone else, who renames it
        await session.execute(
            update(Project).where(Project.sysno == project).values(customer_sysno=b.sysno, name="乙的新名字")
        )
        await session.commit()
    listed = await h.post(f"{R}/GetReportSubscriptionList", {"pageIndex": 1, "pageSize": 10}, a.token)
    assert [(r["sysno"], r["project_name"]) for r in listed["data"]["dataSource"]] == [(saved["sysno"], None)]
    delay = timedelta(minutes=h.ctx.settings.report_schedule_delay_minutes)
    due = datetime.now(UTC) + timedelta(days=8)
    await ReportWorker(h.ctx, clock=lambda: due).tick()
    async with h.ctx.sessions() as session:
        (job,) = list(await session.scalars(select(ReportJob)))
        subscription = await session.get(ReportSubscription, saved["sysno"])
        notes = list(
            await session.scalars(select(CustomerNotice).where(CustomerNotice.notice_type == REPORT))
        )
    assert job.status == "failed" and job.detail == "项目不存在或无权访问"
    assert "乙的新名字" not in job.title and "已无权访问的项目" in job.title
    assert "乙的新名字" not in notes[0].notice_detail
    assert job.period == due_period("week", "Asia/Shanghai", due, delay)[0]
    assert subscription is not None and subscription.enabled is False
    assert [n.customer_sysno for n in notes] == [a.sysno] and "已停用" in notes[0].notice_detail
    assert handler.messages == []
    assert not list(Path(h.ctx.settings.report_dir).glob("*"))


async def test_subscriptions_refuse_bad_input_and_other_customers(centre_harness: Harness) -> None:
    h = centre_harness
    a = await make_account(h, "13900000050")
    b = await make_account(h, "13900000051")
    project = await project_with_devices(h, a)
    saved = await subscribe(h, a.token, project)
    base = {"name": "月报", "kind": "energy", "frequency": "month", "query": {"project_sysno": project}}
    cases = [
        ({**base, "frequency": "hourly"}, "频率取值不在允许范围内"),
        ({**base, "emails": ["not-an-address"]}, "收件邮箱中的 not-an-address 格式不正确"),
        ({**base, "emails": [f"u{i}@example.com" for i in range(11)]}, "收件邮箱项数过多，最多 10 项"),
        ({**base, "query": {"project_sysno": project, "group": "floor"}}, "分组方式"),
        ({**base, "name": ""}, "请填写订阅名称"),
        ({**base, "sysno": 999_999}, "定时报表不存在或无权访问"),
    ]
    theirs = await make_project(h, b.sysno)
    their_building = await make_building(h, theirs)
    their_device = await make_device(h, await make_gateway(h, theirs, their_building), theirs)
    for kind in ("energy", "alarm", "availability", "control"):
        query = {"project_sysno": project, "building_sysno": their_building}
        cases.append(({**base, "kind": kind, "query": query}, "建筑不存在或无权访问"))
    cases.append(
        ({**base, "query": {"project_sysno": project, "device_sysnos": [their_device]}}, "设备不存在")
    )
    for body, message in cases:
        answer = await h.post(f"{R}/SaveReportSubscription", body, a.token)
        assert answer["statusCode"] != 200 and answer["message"].startswith(message), (body, answer)
    foreign = await h.post(f"{R}/SaveReportSubscription", base, b.token)
    assert foreign["message"] == "项目不存在或无权访问"
    stolen = await h.post(f"{R}/SaveReportSubscription", {**base, "sysno": saved["sysno"]}, b.token)
    assert stolen["message"] == "定时报表不存在或无权访问"
    gone = await h.call("DELETE", f"{R}/DeleteReportSubscription", b.token, params={"sysno": saved["sysno"]})
    assert gone["statusCode"] == 404
    edited = await h.post(f"{R}/SaveReportSubscription", {**base, "sysno": saved["sysno"]}, a.token)
    assert (edited["data"]["sysno"], edited["data"]["frequency"]) == (saved["sysno"], "month")
    deleted = await h.call(
        "DELETE", f"{R}/DeleteReportSubscription", a.token, params={"sysno": saved["sysno"]}
    )
    assert deleted["statusCode"] == 200
    listed = await h.post(f"{R}/GetReportSubscriptionList", {"pageIndex": 1, "pageSize": 10}, a.token)
    assert listed["data"]["totalCount"] == 0
