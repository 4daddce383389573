"""Remote-control routes: commands, the command log, timed tasks, device groups and their runs."""

from __future__ import annotations

from fastapi.responses import StreamingResponse

from powerportal.api.deps import ClientIp, CommanderDep, Ctx, CurrentCustomer, Session
from powerportal.control import commands, groups, history, timed
from powerportal.control.schemas import (
    CommandOptions,
    CommandQuery,
    CommandRead,
    CommandSend,
    DeviceBrief,
    DevicePick,
    GroupCreate,
    GroupQuery,
    GroupRead,
    GroupRow,
    GroupSwitch,
    GroupUpdate,
    RunDetail,
    RunQuery,
    RunRead,
    TaskCreate,
    TaskEnable,
    TaskQuery,
    TaskRead,
    TaskRow,
    TaskUpdate,
)
from powerportal.core.downloads import XLSX_RESPONSES, send_file
from powerportal.core.envelope import Envelope, EnvelopeResponse, Outcome, ok
from powerportal.core.routing import api_router
from powerportal.core.schemas import Page, SysnoParam

control_router = api_router("/api/CustomerControl", "远程控制")
command_log_router = api_router("/api/CustomerCommandLog", "命令日志")
task_router = api_router("/api/CustomerTimedTask", "定时控制")
group_router = api_router("/api/CustomerGroup", "分组控制")
routers = (control_router, command_log_router, task_router, group_router)


@control_router.post("/GetControllableDeviceList", response_model=Envelope[list[DeviceBrief]])
async def get_controllable_device_list(
    query: DevicePick, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """Devices the caller may switch (for the task and group forms), at most 2000."""
    return ok(await groups.controllable_devices(session=session, customer=customer, query=query))


@control_router.post("/SendCommand", response_model=Envelope[CommandRead] | Outcome[CommandRead])
async def send_command(
    body: CommandSend, commander: CommanderDep, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Send a command to a device and wait for the gateway's answer (or the timeout).

    Success is statusCode 200; a refusal by the gateway or an offline device 400, a timeout 504 —
    each with the recorded command as ``data``.
    """
    command = await commands.send_command(
        commander=commander, session=session, customer=customer, body=body, ip=ip
    )
    status, message = commands.outcome_message(command)
    return EnvelopeResponse({"statusCode": status, "message": message, "data": command})


@command_log_router.post("/GetCommandLogList", response_model=Envelope[Page[CommandRead]])
async def get_command_log_list(query: CommandQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """The command log of the visible projects, paged and filtered."""
    return ok(await history.list_commands(ctx=ctx, customer=customer, query=query))


@command_log_router.post("/ExportCommandLogList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_command_log_list(
    query: CommandQuery, ctx: Ctx, customer: CurrentCustomer
) -> StreamingResponse:
    """Every command the log's filters keep, as an Excel workbook (paging ignored)."""
    path, name = await history.export_commands(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="commands")


@command_log_router.get("/GetSingleCommand", response_model=Envelope[CommandRead])
async def get_single_command(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """One command of the log."""
    return ok(await history.get_command(session=session, customer=customer, sysno=sysno))


@command_log_router.get("/GetCommandOptions", response_model=Envelope[CommandOptions])
async def get_command_options(_customer: CurrentCustomer) -> EnvelopeResponse:
    """Filter options: outcomes, actions, sources."""
    return ok(history.command_options())


# -- timed tasks ------------------------------------------------------------------------------------


@task_router.post("/GetTaskList", response_model=Envelope[Page[TaskRow]])
async def get_task_list(query: TaskQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """The caller's timed tasks with their devices and next run."""
    return ok(await timed.list_tasks(ctx=ctx, customer=customer, query=query))


@task_router.post("/ExportTaskList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_task_list(query: TaskQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every timed task of the caller's the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await timed.export_tasks(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="tasks")


@task_router.get("/GetSingleTask", response_model=Envelope[TaskRead])
async def get_single_task(sysno: SysnoParam, customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """One timed task."""
    return ok(await timed.get_task(session=session, customer=customer, sysno=sysno))


@task_router.post("/AddTask", response_model=Envelope[TaskRead])
async def add_task(
    body: TaskCreate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Create a timed task."""
    return ok(await timed.create_task(session=session, customer=customer, body=body, ip=ip), "添加成功")


@task_router.put("/UpdateTask", response_model=Envelope[TaskRead])
async def update_task(
    body: TaskUpdate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Replace a timed task."""
    return ok(await timed.update_task(session=session, customer=customer, body=body, ip=ip), "修改成功")


@task_router.put("/EnableTask", response_model=Envelope[TaskRead])
async def enable_task(
    body: TaskEnable, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Enable or disable a timed task."""
    task = await timed.enable_task(session=session, customer=customer, body=body, ip=ip)
    return ok(task, "已启用" if body.enabled else "已停用")


@task_router.delete("/DeleteTask", response_model=Envelope[None])
async def delete_task(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Delete a timed task."""
    await timed.delete_task(session=session, customer=customer, sysno=sysno, ip=ip)
    return ok(None, "删除成功")


@task_router.post("/GetRunList", response_model=Envelope[Page[RunRead]])
async def get_run_list(query: RunQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """Runs of the caller's tasks and groups, newest first."""
    return ok(await history.list_runs(ctx=ctx, customer=customer, query=query))


@task_router.post("/ExportRunList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_run_list(query: RunQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every run of the caller's tasks and groups the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await history.export_runs(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="runs")


@task_router.get("/GetRunDetail", response_model=Envelope[RunDetail])
async def get_run_detail(sysno: SysnoParam, customer: CurrentCustomer, session: Session) -> EnvelopeResponse:
    """A run with each device's result."""
    return ok(await history.get_run(session=session, customer=customer, sysno=sysno))


# -- groups -----------------------------------------------------------------------------------------


@group_router.post("/GetGroupList", response_model=Envelope[Page[GroupRow]])
async def get_group_list(query: GroupQuery, ctx: Ctx, customer: CurrentCustomer) -> EnvelopeResponse:
    """The caller's device groups."""
    return ok(await groups.list_groups(ctx=ctx, customer=customer, query=query))


@group_router.post("/ExportGroupList", response_class=StreamingResponse, responses=XLSX_RESPONSES)
async def export_group_list(query: GroupQuery, ctx: Ctx, customer: CurrentCustomer) -> StreamingResponse:
    """Every device group of the caller's the filters keep, as an Excel workbook (paging ignored)."""
    path, name = await groups.export_groups(ctx=ctx, customer=customer, query=query)
    return send_file(path, name, fallback="groups")


@group_router.get("/GetSingleGroup", response_model=Envelope[GroupRead])
async def get_single_group(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """One device group."""
    return ok(await groups.get_group(session=session, customer=customer, sysno=sysno))


@group_router.post("/AddGroup", response_model=Envelope[GroupRead])
async def add_group(
    body: GroupCreate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Create a device group."""
    return ok(await groups.create_group(session=session, customer=customer, body=body, ip=ip), "添加成功")


@group_router.put("/UpdateGroup", response_model=Envelope[GroupRead])
async def update_group(
    body: GroupUpdate, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Replace a group's name, remark and devices."""
    return ok(await groups.update_group(session=session, customer=customer, body=body, ip=ip), "修改成功")


@group_router.delete("/DeleteGroup", response_model=Envelope[None])
async def delete_group(
    sysno: SysnoParam, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Delete a device group."""
    await groups.delete_group(session=session, customer=customer, sysno=sysno, ip=ip)
    return ok(None, "删除成功")


@group_router.post("/SwitchGroup", response_model=Envelope[RunRead])
async def switch_group(
    body: GroupSwitch, commander: CommanderDep, customer: CurrentCustomer, session: Session, ip: ClientIp
) -> EnvelopeResponse:
    """Switch a whole group; poll ``GetRunStatus`` for each device's result as it arrives."""
    run = await groups.switch_group(commander=commander, session=session, customer=customer, body=body, ip=ip)
    return ok(run, "命令已下发，正在等待网关应答")


@group_router.get("/GetRunStatus", response_model=Envelope[RunDetail])
async def get_run_status(
    sysno: SysnoParam, commander: CommanderDep, customer: CurrentCustomer, session: Session
) -> EnvelopeResponse:
    """A group run with each device's result so far."""
    live = commander.live_runs.get(sysno)
    return ok(
        await history.get_run(
            session=session, customer=customer, sysno=sysno, ahead=live.unwritten if live else None
        )
    )
