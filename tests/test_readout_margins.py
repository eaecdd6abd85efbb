"""Read-out margins both ways (issue 29): a state code is flagged when it is too large, too small or
between codewords, not only when its two entries come close (engine/model.py ``_word``, ``_onehot``).
The rows are written by hand in units of the circuit's amplitude ``VAMP``."""

import pytest
import torch

from engine.model import MARGIN, VAMP, _onehot, _word


def _pairs(bits: list[tuple[float, float]]) -> torch.Tensor:
    row = torch.zeros(64, dtype=torch.float64)
    for t, (s, c) in enumerate(bits):
        row[2 * t], row[2 * t + 1] = s * VAMP, c * VAMP
    return row


CLEAN = [(1.0, 0.0) if t in (0, 3) else (0.0, 1.0) for t in range(32)]  # the word 9


@pytest.mark.parametrize("bit0,flagged", [
    ((1.0, 0.0), False),   # clean
    ((1.2, 0.0), False),   # a fifth too large: still within a quarter
    ((1.4, 0.0), True),    # too large (the old rule, |set - clear| >= 0.5, let it pass)
    ((0.6, 0.0), True),    # too small
    ((0.9, 0.6), True),    # between codewords (the old rule flagged this only below 0.5 apart)
    ((0.55, 0.45), True),  # nearly a tie
])
def test_word_margin_both_ways(bit0, flagged):
    w = _word(_pairs([bit0] + CLEAN[1:]))
    assert w.written and w.value == 9
    assert (not w.ok) == flagged, w.margin


def test_word_never_written_and_value():
    assert _word(torch.zeros(64)).written is False and _word(torch.zeros(64)).value == 0
    w = _word(_pairs(CLEAN))
    assert (w.value, w.margin, w.ok) == (9, 1.0, True)


@pytest.mark.parametrize("row,value,flagged", [
    ([0.0, 1.0, 0.0], 20, False),
    ([0.0, 1.6, 0.0], 20, True),    # too large
    ([0.0, 0.5, 0.0], 20, True),    # too small
    ([0.3, 1.0, 0.0], 20, True),    # a second entry rising
    ([0.0, 0.0, 0.0], 0, False),    # never written
])
def test_onehot_margin_both_ways(row, value, flagged):
    w = _onehot(torch.tensor(row, dtype=torch.float64) * VAMP, [10, 20, 30])
    assert w.value == value and (not w.ok) == flagged and MARGIN == 0.5
