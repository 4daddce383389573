"""A keep-alive HTTP/1.1 load generator on raw asyncio streams, cheap enough not to be the bottleneck."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass
class LoadResult:
    """Throughput and latency of one run."""

    name: str
    requests: int
    errors: int
    seconds: float
    latencies_ms: list[float]

    @property
    def rps(self) -> float:
        """Requests per second."""
        return self.requests / self.seconds

    def percentile(self, p: float) -> float:
        """Latency percentile in milliseconds."""
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]

    @classmethod
    def combine(cls, parts: list[LoadResult]) -> LoadResult:
        """Several runs of one request as one."""
        return cls(
            parts[0].name,
            sum(p.requests for p in parts),
            sum(p.errors for p in parts),
            sum(p.seconds for p in parts),
            [latency for p in parts for latency in p.latencies_ms],
        )

    def line(self) -> str:
        """One printed line."""
        return (
            f"{self.name:<34} {self.rps:>9.0f} req/s   p50 {self.percentile(50):6.2f} ms   "
            f"p99 {self.percentile(99):6.2f} ms   mean {statistics.fmean(self.latencies_ms):6.2f} ms   "
            f"errors {self.errors}"
        )


def build_request(method: str, path: str, host: str, headers: dict[str, str], body: bytes) -> bytes:
    """Serialise one request."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: keep-alive"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if body or method != "GET":
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def _read_response(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    body = await reader.readexactly(length)
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(head[:40])
    return body


async def run_load(
    *,
    name: str,
    host: str,
    port: int,
    request: bytes,
    connections: int,
    seconds: float,
    expect: bytes = b'"statusCode":200',
) -> LoadResult:
    """Hammer one request from ``connections`` keep-alive clients for ``seconds``."""
    latencies: list[float] = []
    errors = 0
    stop_at = time.perf_counter() + seconds

    async def client() -> None:
        nonlocal errors
        reader, writer = await asyncio.open_connection(host, port)
        try:
            while time.perf_counter() < stop_at:
                started = time.perf_counter()
                writer.write(request)
                body = await _read_response(reader)
                latencies.append((time.perf_counter() - started) * 1000)
                if expect not in body:
                    errors += 1
        finally:
            writer.close()

    began = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(connections)))
    return LoadResult(name, len(latencies), errors, time.perf_counter() - began, latencies)


@dataclass(frozen=True)
class Case:
    """A request measured under a name with so many clients at once."""

    name: str
    request: bytes
    connections: int


async def take_turns(
    port: int,
    cases: Sequence[Case],
    *,
    seconds: float,
    rounds: int,
    cpu: Callable[[], float] | None = None,
) -> tuple[list[LoadResult], list[float]]:
    """Every case warmed up, then measured in ``rounds`` short turns of ``seconds / rounds`` in all.

    The cases take turns, so a machine that speeds up or slows down during the run (a shared
    virtual machine does) weighs on every case alike. ``cpu``: the server's CPU seconds so far,
    for the CPU each case used (else zeros).
    """
    for case in cases:  # warm up every route
        await run_load(
            name="warm", host="127.0.0.1", port=port, request=case.request, connections=2, seconds=1
        )
    runs: list[list[LoadResult]] = [[] for _ in cases]
    used = [0.0 for _ in cases]
    for _round in range(rounds):
        for index, case in enumerate(cases):
            before = cpu() if cpu is not None else 0.0
            runs[index].append(
                await run_load(
                    name=case.name,
                    host="127.0.0.1",
                    port=port,
                    request=case.request,
                    connections=case.connections,
                    seconds=seconds / rounds,
                )
            )
            used[index] += (cpu() if cpu is not None else 0.0) - before
    return [LoadResult.combine(parts) for parts in runs], used
