"""The cleaning of JSON answers skips a body only where the full search would find nothing."""

from __future__ import annotations

import orjson
from hypothesis import given
from hypothesis import strategies as st

from powerportal.core.text import _IN_JSON, _clean_value, clean_json

# Characters near every byte the search looks for: controls, DEL, C1, bidi marks, other punctuation.
NEAR = st.one_of(
    st.characters(min_codepoint=0, max_codepoint=0xFF),
    st.characters(min_codepoint=0x600, max_codepoint=0x620),
    st.characters(min_codepoint=0x2000, max_codepoint=0x206F),
    st.characters(min_codepoint=0x4E00, max_codepoint=0x4E20),
)


@given(st.lists(st.text(NEAR, max_size=12), max_size=6))
def test_the_fast_path_agrees_with_the_search(texts: list[str]) -> None:
    body = orjson.dumps({"data": texts, "note": "基准—测试…"})
    expected = (
        body
        if _IN_JSON.search(body) is None
        else orjson.dumps(_clean_value(orjson.loads(body)), option=orjson.OPT_NON_STR_KEYS)
    )
    assert clean_json(body) == expected


def test_a_clean_chinese_answer_is_returned_as_it_is() -> None:
    body = orjson.dumps({"message": "操作成功", "data": ["基准测试记录", "1号回路 — 一期"]})
    assert clean_json(body) is body
    dirty = orjson.dumps({"data": ["a\u202eb", "c\x07d"]})
    assert orjson.loads(clean_json(dirty)) == {"data": ["ab", "cd"]}
