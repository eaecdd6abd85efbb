"""The PTX parser on hand-written PTX: statements, operands, labels, line numbers, scopes."""

from __future__ import annotations

from compiler.ptx_parse import PAddr, PImm, PPair, PReg, PSpecial, PSym, PtxInstr, PtxLabel, PVec, parse_ptx

PTX = """//
// comment line
.version 7.0
.target sm_70
.address_size 64
.global .align 4 .u32 counter;

.visible .entry k(
	.param .u64 k_param_0,
	.param .u32 k_param_1
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<9>;
	.shared .align 4 .b8 buf[24];
	.loc	1 7 3
	ld.param.u64 	%rd1, [k_param_0];   /* a block
	comment */
$L__BB0_1:
	.loc	2 99 1
	mov.u32 	%r1, %tid.x;
	.loc	1 8 1
	@!%p1 bra 	$L__BB0_1;
	ld.global.v2.u32 	{%r2, %r3}, [%rd1+-8];
	shfl.sync.down.b32 	%r4|%p2, %r2, 1, 7199, 15;
	st.shared.u32 	[buf+4], %r4;
	mov.b32 	%r5, 0f3F800000;
	{
	.reg .pred %p1;
	setp.eq.u32 %p1, %r5, 0;
	}
	call.uni (retval0), helper, (param0);
	ret;
}
.file 1 "/tmp/x/k.cu"
"""


def _instrs(k):
    return [i for i in k.body if isinstance(i, PtxInstr)]


def test_kernel_params_shared_and_globals():
    m = parse_ptx(PTX, "k.cu.ptx")
    (k,) = m.kernels
    assert k.name == "k"
    assert [(p.name, p.type) for p in k.params] == [("k_param_0", "u64"), ("k_param_1", "u32")]
    assert k.shared == {"buf": 24}
    assert [g[0] for g in m.globals] == ["counter"]
    assert m.globals[0][1] == PTX.splitlines().index(".global .align 4 .u32 counter;") + 1


def test_operands_and_line_numbers():
    k = parse_ptx(PTX, "k.cu.ptx").kernels[0]
    ins = _instrs(k)
    lines = PTX.splitlines()
    ld, mov, bra, vld, shfl, st, movf, setp, call, ret = ins
    assert ld.operands == [PReg("%rd1"), PAddr(PSym("k_param_0"), 0)]
    assert ld.line == lines.index("\tld.param.u64 \t%rd1, [k_param_0];   /* a block") + 1
    assert mov.operands[1] == PSpecial("tid.x")
    assert bra.guard == PReg("%p1", neg=True) and bra.operands == [PSym("$L__BB0_1")]
    assert vld.operands == [PVec((PReg("%r2"), PReg("%r3"))), PAddr(PReg("%rd1"), -8)]
    assert shfl.operands[0] == PPair(PReg("%r4"), PReg("%p2"))
    assert shfl.operands[2:] == [PImm(1), PImm(7199), PImm(15)]
    assert st.operands[0] == PAddr(PSym("buf"), 4)
    assert movf.operands[1] == PImm(0x3F800000)  # a float constant keeps its bit pattern
    assert call.base == "call" and call.operands == [PSym("helper")]
    assert ret.base == "ret"


def test_labels_and_cuda_lines_from_the_main_file_only():
    k = parse_ptx(PTX, "k.cu.ptx").kernels[0]
    labels = [i.name for i in k.body if isinstance(i, PtxLabel)]
    assert labels == ["$L__BB0_1"]
    ins = _instrs(k)
    # .loc 2 99 belongs to another file (a header): the CUDA line stays 7 until .loc 1 8
    assert [i.cuda_line for i in ins[:3]] == [7, 7, 8]


def test_registers_of_inner_blocks_are_renamed():
    k = parse_ptx(PTX, "k.cu.ptx").kernels[0]
    setp = [i for i in _instrs(k) if i.base == "setp"][0]
    assert setp.operands[0].name != "%p1" and setp.operands[0].name.startswith("%p1")
    assert setp.operands[1] == PReg("%r5")
