"""Block temporaries (docs/machine.md, "Temporaries"): which writes are marked, and how the ROM
encodes them. Expected values are written out by hand from the programs below."""

from compiler.block_temps import mark_temps
from compiler.circuit.protocol import encode_rom
from compiler.machine.isa import Block, Branch, Exit, Guard, Imm, Instr, Jump, Op, Pred, Program, Reg


def _program() -> Program:
    # B0: r1 = 5; r2 = r1 + 1 (r1 used up here: a temporary); p0 = r2 < 10 (read by the branch only)
    # B1: st [out] r2 ; exit
    b0 = Block(0, [Instr(Op.MOV, Reg(1), (Imm(5),)), Instr(Op.ADD, Reg(2), (Reg(1), Imm(1))),
                   Instr(Op.SETP, Pred(0), (Reg(2), Imm(10)), "lt")],
               Branch(Guard(Pred(0)), 1, 1))
    b1 = Block(1, [Instr(Op.PARAM, Reg(3), (Imm(0),)), Instr(Op.ST, None, (Reg(3), Imm(0), Reg(2)), "global")],
               Exit())
    return Program("t", [b0, b1], [], 0, 4, 1)


def test_marks_dead_writes_only():
    p = mark_temps(_program())
    assert p.blocks[0].temps == frozenset({Reg(1), Pred(0)})
    assert p.blocks[1].temps == frozenset({Reg(3)})


def test_rom_has_no_destination_for_a_temporary():
    rom = encode_rom(mark_temps(_program()))
    assert "dst" not in rom[(0, 0)] and rom[(0, 1)]["dst"] == 2 and "dst" not in rom[(0, 2)]


def test_guarded_write_does_not_kill():
    # r1 = 7 in B0; B1 overwrites r1 only where p0 holds, then stores r1: B0's r1 stays live
    b0 = Block(0, [Instr(Op.MOV, Reg(1), (Imm(7),)), Instr(Op.SETP, Pred(0), (Reg(1), Imm(0)), "lt")], Jump(1))
    b1 = Block(1, [Instr(Op.MOV, Reg(1), (Imm(9),), guard=Guard(Pred(0))),
                   Instr(Op.ST, None, (Reg(0), Imm(0), Reg(1)), "global")], Exit())
    p = mark_temps(Program("g", [b0, b1], [], 0, 2, 1))
    assert p.blocks[0].temps == frozenset()  # p0 and (through the guarded mov) r1 are read by B1
    assert p.blocks[1].temps == frozenset({Reg(1)})
