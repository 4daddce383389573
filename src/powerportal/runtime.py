"""The running parts of one server process, wired above the domains.

``AppContext`` (core) holds the infrastructure; this object adds what the domains run in the
background: the MQTT side with its ingest, the alarm engine and its texts, the command sender,
the timed-task scheduler, the report worker and the billing worker (which charges after each
energy fold). A process started as ``--role api`` has only the command sender, which then refuses
to send (no rpc channel).
"""

from __future__ import annotations

from dataclasses import dataclass

from powerportal.alarms import runtime as alarms_runtime
from powerportal.billing.worker import BillingWorker
from powerportal.control import scheduler as control_scheduler
from powerportal.control.commands import Commander
from powerportal.core.context import AppContext
from powerportal.energy.observer import EnergyObserver
from powerportal.load_ident.actions import LoadActions
from powerportal.load_ident.observer import LoadObserver
from powerportal.reports import worker as report_worker
from powerportal.telemetry import runtime as telemetry_runtime
from powerportal.telemetry.broker_auth import BrokerGate
from powerportal.telemetry.latest import LatestValues


@dataclass
class Runtime:
    """What this process runs besides serving requests."""

    ctx: AppContext
    commander: Commander
    telemetry: telemetry_runtime.TelemetryRuntime | None = None
    alarms: alarms_runtime.AlarmRuntime | None = None
    scheduler: control_scheduler.Scheduler | None = None
    energy: EnergyObserver | None = None
    reports: report_worker.ReportWorker | None = None
    billing: BillingWorker | None = None
    # Load identification: the ingest observer, and the worker sending its trips and re-closes.
    load_observer: LoadObserver | None = None
    load_actions: LoadActions | None = None
    # Answers EMQX's HTTP authenticator and authorizer (POWERPORTAL_BROKER_AUTH_SECRET set).
    broker_gate: BrokerGate | None = None

    @classmethod
    async def start(cls, ctx: AppContext, *, background: bool) -> Runtime:
        """Start the background roles the settings ask for (none unless ``background``)."""
        broker_gate = None
        if ctx.settings.broker_auth_secret:
            broker_gate = BrokerGate(ctx)
            broker_gate.start()
        if not background:
            return cls(ctx=ctx, commander=Commander(ctx), broker_gate=broker_gate)
        telemetry = await telemetry_runtime.start(ctx)
        energy = EnergyObserver(ctx.sessions)
        telemetry.ingest.observers.append(energy)
        alarms = alarms_runtime.attach(ctx, telemetry.ingest)
        load_observer = LoadObserver(on_alarms=alarms.texter.enqueue if alarms and alarms.texter else None)
        telemetry.ingest.observers.append(load_observer)
        ingest = telemetry.ingest if ctx.settings.ingest else None
        commander = Commander(
            ctx, rpc=telemetry.rpc, confirm=ingest.confirm_switches if ingest is not None else None
        )
        billing = BillingWorker(ctx, commander)
        energy.after_fold.append(billing.folded)
        billing.start()
        load_actions = LoadActions(ctx, commander)
        load_observer.on_trips = load_actions.wake
        load_actions.start()
        return cls(
            ctx=ctx,
            commander=commander,
            telemetry=telemetry,
            alarms=alarms,
            scheduler=control_scheduler.start(commander),
            energy=energy,
            reports=report_worker.start(ctx),
            billing=billing,
            broker_gate=broker_gate,
            load_observer=load_observer,
            load_actions=load_actions,
        )

    @property
    def latest(self) -> LatestValues | None:
        """The ingest's in-memory latest values, when this process runs the ingest."""
        return self.telemetry.ingest.latest if self.telemetry is not None else None

    async def stop(self) -> None:
        """Stop everything started, the newest first."""
        if self.load_actions is not None:
            await self.load_actions.stop()
        if self.billing is not None:
            await self.billing.stop()
        if self.reports is not None:
            await self.reports.stop()
        if self.scheduler is not None:
            await self.scheduler.stop()
        await self.commander.stop()
        if self.telemetry is not None:
            await self.telemetry.stop()
        if self.alarms is not None:
            await self.alarms.stop()
        if self.broker_gate is not None:
            await self.broker_gate.stop()
