"""Files answered as downloads: a written temporary file streamed back under a Chinese file name."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi.responses import StreamingResponse

MEDIA = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}

# The OpenAPI answer of a route that answers a workbook (or, refused, the JSON error envelope).
XLSX_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {MEDIA["xlsx"]: {}}, "description": "The workbook"}
}


# What no file name may hold on the common systems (a project or building name may hold any of them).
_NOT_IN_NAMES = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')


def safe_name(name: str) -> str:
    """``name`` as a file name every system saves as it is: a slash or the like becomes ``_``."""
    return _NOT_IN_NAMES.sub("_", name)


def send_file(path: Path, name: str, *, keep: bool = False, fallback: str = "report") -> StreamingResponse:
    """Stream a written file as ``name``; unless ``keep``, the file is gone from the disk once open.

    ``fallback`` is the ASCII file name (before the suffix) for clients that do not read ``filename*``.
    """
    handle = open(path, "rb")  # noqa: SIM115, ASYNC230 - closed by the stream
    if not keep:
        path.unlink()
    size = os.fstat(handle.fileno()).st_size

    async def chunks() -> AsyncIterator[bytes]:
        try:
            while data := await asyncio.to_thread(handle.read, 1 << 20):
                yield data
        finally:
            handle.close()

    suffix = path.suffix[1:]
    disposition = (
        f"attachment; filename={fallback}.{suffix}; filename*=UTF-8''{quote(safe_name(name), safe='')}"
    )
    return StreamingResponse(
        chunks(),
        media_type=MEDIA[suffix],
        headers={"Content-Disposition": disposition, "Content-Length": str(size)},
    )
