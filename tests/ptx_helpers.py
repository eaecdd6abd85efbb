"""Run hand-written PTX kernels through the PTX half of the compiler and the interpreter."""

from __future__ import annotations

from compiler.kernel_compiler import compile_ptx_kernel
from compiler.machine.config import DEFAULT
from compiler.machine.isa import ParamInfo
from compiler.ptx_parse import parse_ptx
from engine.interpreter import run
from engine.launch import build_launch

HEAD = ".version 7.0\n.target sm_70\n.address_size 64\n"


def kernel_ptx(body: str, params: str = ".param .u64 k_param_0", regs: str = "") -> str:
    decl = regs or ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<40>;\n.reg .b16 %rs<8>;"
    return f"{HEAD}.visible .entry k(\n{params}\n)\n{{\n{decl}\n{body}\n}}\n"


def compile_ptx(ptx: str, params: list[ParamInfo], cfg=DEFAULT):
    module = parse_ptx(ptx, "test.ptx")
    return compile_ptx_kernel(module.kernels[0], params, cfg, "test.ptx", module.globals)


OUT = [ParamInfo("out", "unsigned*", True, True)]


def run_out(body: str, n_out: int, block: int = 1, extra_params: list[ParamInfo] | None = None,
            args: dict[str, str] | None = None, params_decl: str | None = None) -> list[int]:
    """Run a kernel whose first parameter is ``unsigned* out``; return out's words."""
    params = OUT + (extra_params or [])
    decl = params_decl or ",\n".join(
        [".param .u64 k_param_0"] + [f".param .{'u64' if p.is_pointer else 'u32'} k_param_{i + 1}"
                                      for i, p in enumerate(extra_params or [])])
    prog = compile_ptx(kernel_ptx(body, decl), params)
    raw = {"out": f"zeros:{n_out}"}
    raw.update(args or {})
    launch = build_launch(prog, 1, block, raw)
    return run(prog, launch).arrays["out"]


def run_cuda(src: str, name: str, block: int, **args: str):
    """Compile CUDA source, launch one CTA of ``block`` threads, return (program, final arrays)."""
    from compiler.kernel_compiler import compile_cuda

    prog = compile_cuda(src, name)
    return prog, run(prog, build_launch(prog, 1, block, args)).arrays
