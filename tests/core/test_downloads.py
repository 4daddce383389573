"""Downloads: the file name a browser or ``curl -OJ`` saves."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from powerportal.core.downloads import send_file


def test_a_download_is_named_what_every_system_saves_as_it_is(tmp_path: Path) -> None:
    """A project or building name may hold a slash, quote or line break: never in the saved name."""
    path = tmp_path / "x.xlsx"
    path.write_bytes(b"PK")
    answer = send_file(path, '能耗报表_东区/../"A"楼\r\n;x.xlsx')
    disposition = answer.headers["content-disposition"]
    encoded = disposition.split("filename*=UTF-8''")[1]
    assert all(c not in encoded for c in '/"\r\n; '), encoded  # RFC 8187: nothing unencoded but attr-chars
    assert unquote(encoded) == "能耗报表_东区_..__A_楼__;x.xlsx"
