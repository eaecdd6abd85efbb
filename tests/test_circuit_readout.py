"""The read-out of a DeltaNet value head is a power of two, and bfloat16 computes it exactly.

Qwen3.5's ``RMSNormGated`` (transformers/models/qwen3_5/modeling_qwen3_5.py) normalises a head's
row in float32, casts it to the model's dtype, multiplies by ``silu(z)`` in float32 and casts
again. For every ``nnz`` (equal non-zero entries of a written row) the circuit uses, that chain
must give exactly the read-out ``checkpoint.readout`` promises, in bfloat16 as in float32; the
expected chain is written out here with torch's own casts and the formula of transformers' code.
"""

import pytest
import torch

from compiler.machine.config import DEFAULT
from compiler.circuit.checkpoint import readout
from compiler.circuit.layers import VAMP

DV = 64
NNZ = (1, 2, 3, 4, 5, 16, 20, 32)
"""Every nnz of the default circuit's value heads (test_every_nnz_of_the_circuit_is_listed)."""


def _norm_gated(nnz: int, z: float, dtype: torch.dtype) -> float:
    """An entry of a row with ``nnz`` entries of VAMP after RMSNormGated, as transformers computes it."""
    row = torch.zeros(DV, dtype=dtype)
    row[:nnz] = VAMP
    h = row.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
    h = torch.ones(DV, dtype=dtype) * h.to(dtype)
    gate = torch.tensor(z, dtype=torch.float32).to(dtype).to(torch.float32)   # z = in_proj_z(anchor = 1)
    return float((h * torch.nn.functional.silu(gate)).to(dtype)[0])


@pytest.mark.parametrize("nnz", NNZ)
def test_readout_is_a_power_of_two_exact_in_both_dtypes(nnz):
    gate, read = readout(nnz, DV)
    assert read == 2.0 ** round(torch.log2(torch.tensor(read)).item())
    assert _norm_gated(nnz, VAMP * gate, torch.bfloat16) == read
    assert abs(_norm_gated(nnz, VAMP * gate, torch.float32) - read) < 1e-5 * read
    assert VAMP * gate >= 17   # silu(z) == z: the gate stays fully open


def test_every_nnz_of_the_circuit_is_listed():
    from compiler.circuit.gpu import build_spec

    spec = build_spec(DEFAULT)
    used = {vh.nnz for L in spec.layers for kh in L.heads for vh in kh.values if vh.read_scale is None}
    assert used <= set(NNZ)
