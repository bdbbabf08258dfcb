"""The score sheet over a session (rule book §3.14)."""

from __future__ import annotations

import pytest

from atout.scoring import ScoreSheet


def test_sheet_running_totals_and_totals_3_14() -> None:
    sheet = ScoreSheet(3)
    sheet.add([104, -52, -52], label="garde")
    sheet.add([-104, 52, 52])
    sheet.add([108, -54, -54], label="petite")
    assert [r.label for r in sheet.rows] == ["garde", None, "petite"]
    assert sheet.running_totals() == [(104, -52, -52), (0, 0, 0), (108, -54, -54)]
    assert sheet.totals == (108, -54, -54)
    assert len(sheet) == 3 and [r.scores for r in sheet] == [r.scores for r in sheet.rows]


def test_sheet_zero_sum_check_3_14() -> None:
    sheet = ScoreSheet(3)
    assert sheet.is_zero_sum() and sheet.totals == (0, 0, 0)
    sheet.add([68, 0, 0])
    assert not sheet.is_zero_sum()


def test_sheet_refuses_a_row_of_the_wrong_length_3_14() -> None:
    sheet = ScoreSheet(4)
    with pytest.raises(ValueError, match="4 scores, not 3"):
        sheet.add([1, -1, 0])
    assert len(sheet) == 0


def test_sheet_needs_a_player() -> None:
    with pytest.raises(ValueError):
        ScoreSheet(0)


def test_each_row_carries_the_running_totals_so_adding_is_constant_time_3_14() -> None:
    sheet = ScoreSheet(3)
    first = sheet.add([104, -52, -52])
    second = sheet.add([-104, 52, 52])
    assert first.totals == (104, -52, -52) and second.totals == (0, 0, 0)
    assert sheet.running_totals() == [first.totals, second.totals]


def test_a_sheet_without_rows_keeps_totals_in_the_same_memory_3_14() -> None:
    sheet = ScoreSheet(3, keep_rows=False)
    for _ in range(1000):
        sheet.add([104, -52, -52])
    sheet.add([68, 0, 0])
    assert sheet.rows == () and list(sheet) == [] and len(sheet) == 1001
    assert sheet.totals == (104_068, -52_000, -52_000)
    assert not sheet.is_zero_sum()
