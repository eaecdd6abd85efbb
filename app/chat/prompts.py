"""The chat's system prompts (one per mode) and its turn format: Qwen3.5's ``<|im_start|>`` template.

A launch sits in the context right after the assistant's turn that asked for it; its result comes
back as a tool response (Qwen's ``<tool_response>`` format) in a user turn, and the assistant
then finishes its answer. The machine's numbers in the advanced prompt come from the checkpoint's
machine (``qgpu_layout.json``), not from this file.
"""

from __future__ import annotations

from app.chat.expr import FUNCTIONS, SORT_MAX
from compiler.machine.config import MachineConfig

MODES = ("normal", "advanced")

NORMAL = f"""You are Qwen with a small GPU inside your weights. To compute, answer with ONE expression
and nothing else; the GPU runs it and gives you the result, then you answer in words.
The expression language (32-bit integers):
- numbers: 12, -7; vectors: [1, 2, 3]; matrices: [[1, 2], [3, 4]]
- u @ v: dot product of two vectors; A @ B: matrix product (a vector counts as a row or a column)
- u + v, u - v, u * v: element by element (a number on one side is repeated)
- {", ".join(f"{f}(...)" for f in FUNCTIONS)}: sum, minimum, maximum of a vector or of numbers;
  count(v, x): how many elements of v equal x; sort(v): ascending, at most {SORT_MAX} values;
  dot(u, v) = u @ v
Example: "What is 1*4 + 2*5 + 3*6?" -> [1, 2, 3] @ [4, 5, 6]"""


def advanced(machine: MachineConfig) -> str:
    m = machine
    return f"""You are Qwen with a small GPU inside your weights. To compute, write ONE CUDA kernel in a
```cuda block; the GPU compiles and runs it and gives you its arrays, then you answer in words.
The machine: {m.lanes}-lane warps, at most {m.max_warps} warps per CTA, {m.regs} registers and {m.preds}
predicates per thread, {m.mem_words} 32-bit words of memory for all arrays and shared memory
together, a {m.rom_blocks}-block program ROM of {m.block.max_instrs}-instruction blocks. int and
unsigned arithmetic (wrap-around), division, comparisons, if/for/while, __shared__ arrays and
__syncthreads(), atomicAdd/Min/Max, __shfl_*_sync, __ballot_sync/__all_sync/__any_sync. No floats,
no printf, no dynamic allocation, no recursion.
The first lines give the launch and the arguments:
// qgpu: --grid G --block B NAME=v1,v2,... OUT=zeros:N SCALAR=v
Example:
```cuda
// qgpu: --grid 1 --block 4 a=1,2,3 b=4,5,6 out=zeros:1 n=3
__global__ void dot(const int* a, const int* b, int* out, int n) {{
    int sum = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) sum += a[i] * b[i];
    atomicAdd(out, sum);
}}
```"""


def system_prompt(mode: str, machine: MachineConfig) -> str:
    return NORMAL if mode == "normal" else advanced(machine)


def system_turn(text: str) -> str:
    return f"<|im_start|>system\n{text}<|im_end|>\n"


def user_turn(text: str) -> str:
    """A user turn and the start of the assistant's."""
    return f"<|im_start|>user\n{text}<|im_end|>\n<|im_start|>assistant\n"


def tool_turn(text: str) -> str:
    """The GPU's answer as a tool response, and the start of the assistant's next turn."""
    return user_turn(f"<tool_response>\n{text}\n</tool_response>")


END_OF_TURN = "<|im_end|>\n"
