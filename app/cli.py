"""``qgpu``: compile CUDA for the machine and run kernels on it.

Errors are printed as one message (``file:line: error: ...``), never a traceback;
exit status 2 for bad input, 1 for a kernel that faulted at run time, 3 for a bug
in qgpu itself (``QGPU_DEBUG=1`` shows its traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from app.launching import add_machine_option, checkpoint_for, exit_status, machine_for
from compiler.errors import LaunchError
from compiler.circuit.protocol import is_exec
from compiler.circuit.dims import MAX_ROM_BLOCKS
from compiler.machine.config import DEFAULT
from compiler.machine.semantics import s32

USAGE_EXAMPLES = """\
examples:
  qgpu compile samples/dot.cu
  qgpu run samples/dot.cu                      # launch and inputs from the sample's '// qgpu:' lines
  qgpu run samples/dot.cu --grid 1 --block 4 a=1,2,3 b=4,5,6 out=zeros:1 n=3 --json
"""

RUN_HELP = """\
Run a kernel on the machine and print the final contents of every pointer argument.

Arguments NAME=VALUES name the kernel's CUDA parameters: a pointer parameter takes
comma-separated ints (e.g. a=1,2,-3) or zeros:N; a scalar parameter takes one int.
Values outside the signed range may be given as unsigned (e.g. 4294967295 or 0xffffffff).
Launch configuration and arguments not given on the command line are taken from
the file's '// qgpu:' header lines, when it has them.

With --json, one JSON object is printed: {"kernel", "grid", "block", "backend",
"steps", "arrays": {name: [ints]}}; values are printed signed or unsigned as the
parameter's CUDA type says. --trace adds the launch trace (every EXEC step).
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 with usage; keep that, shorter
        self.print_usage(sys.stderr)
        print(f"qgpu: error: {message}", file=sys.stderr)
        sys.exit(2)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="qgpu", description="qgpu: a 4-lane SIMT GPU to be compiled into a Qwen3.5 model. "
                "This tool compiles CUDA kernels for the machine and runs them.",
                epilog=USAGE_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    from importlib.metadata import PackageNotFoundError, version

    try:
        v = version("qgpu")
    except PackageNotFoundError:
        v = "unknown (not installed)"
    p.add_argument("--version", action="version", version=f"qgpu {v}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    c = sub.add_parser("compile", help="show the PTX and the machine blocks of a kernel",
                       description="Compile a CUDA file and print its PTX and the block listing (ROM image).",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("file", help="CUDA source file (.cu)")
    c.add_argument("--kernel", help="kernel to compile when the file has several")
    c.add_argument("--no-ptx", action="store_true", help="print only the block listing")
    c.add_argument("--json", action="store_true", help="print the program as JSON")
    add_machine_option(c)
    c.add_argument("--model", metavar="DIR", help="compile for this checkpoint's machine")

    r = sub.add_parser("run", help="run a kernel and print its output arrays", description=RUN_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    r.add_argument("file", help="CUDA source file (.cu)")
    r.add_argument("args", nargs="*", metavar="NAME=VALUES", help="kernel arguments")
    r.add_argument("--grid", type=int, help="number of CTAs (1-D)")
    r.add_argument("--block", type=int, help="threads per CTA (1-D)")
    r.add_argument("--kernel", help="kernel to run when the file has several")
    r.add_argument("--backend", choices=["interp", "model"], default="interp",
                   help="what executes the launch: 'interp' = the reference interpreter, 'model' = the "
                        "GPU checkpoint (a Qwen3.5 model; one forward pass per token)")
    r.add_argument("--model", metavar="DIR", help="checkpoint directory for --backend model (default: the "
                   "cached build of --machine, built on first use; see 'qgpu build'); with --backend interp, "
                   "run on its machine")
    add_machine_option(r)
    r.add_argument("--dtype", choices=["float32", "bfloat16"], default="float32",
                   help="dtype the checkpoint is loaded in (--backend model)")
    r.add_argument("--device", default="cpu",
                   help="where the forward passes run (--backend model): 'cpu' (default), 'cuda' or "
                        "'cuda:N'; the tokens and the state read-out are the same on either")
    r.add_argument("--engine", choices=["fast", "hf"], default="fast",
                   help="what executes the checkpoint (--backend model): 'fast' (default) = engine/fast.py, a "
                        "generic Qwen3.5 executor that skips exact-zero weights; 'hf' = stock transformers "
                        "(AutoModelForCausalLM), the reference. Both give the same tokens")
    r.add_argument("--check-replay", action="store_true",
                   help="--backend model: compare every generated token with the interpreter's trace and "
                        "stop at the first difference (exit status 4)")
    r.add_argument("--teacher-forced", action="store_true",
                   help="with --check-replay: feed the interpreter's trace (2048 tokens per forward pass) and check "
                        "that the model predicts every token (the same verdict as generating when the model "
                        "is right, about 10x faster; the state read-out is the same). Generation itself "
                        "is then not exercised")
    r.add_argument("--text-before", metavar="TEXT", help="a merged checkpoint ('qgpu build --base'): "
                   "read this text first, then the launch (the launch must work after text)")
    r.add_argument("--inject", metavar="SPEC", help="--backend model: change a register of a lane, a memory "
                   "word or a ROM field in the model's state before an EXEC step, or silence a neuron or head of a "
                   "layer from that step on (fault injection; engine/faults.py): rN@wW.lL, mem[A], NAME[I] or "
                   "rom[B.S].FIELD (S = t: the terminator), then ^B (flip bit B, the default ^0) or =V, then "
                   "@STEP, e.g. r4@w0.l2^3@5 or rom[0.1].op^2@0; LN.nK / LN.hK (neuron / head K of layer N), "
                   "then @STEP, e.g. L20.n117@3. With --check-replay the first token where the launch departs from the "
                   "fault-free interpreter is reported (exit status 4); a fault never read leaves the output unchanged")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    r.add_argument("--trace", action="store_true", help="also print the launch trace")
    r.add_argument("--max-steps", type=_positive, default=DEFAULT.max_steps,
                   help=f"stop a runaway kernel after this many EXEC steps (default {DEFAULT.max_steps})")

    g = sub.add_parser("generate", help="greedy continuation of any Qwen3.5 checkpoint, on either engine",
                       description=GENERATE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    g.add_argument("model", metavar="DIR", help="a Qwen3.5 checkpoint directory (config.json + *.safetensors)")
    g.add_argument("--ids", required=True, help="prompt token ids, comma-separated (e.g. 1,2,3)")
    g.add_argument("--max-new-tokens", type=_positive, default=20, help="tokens to generate (default 20)")
    g.add_argument("--engine", choices=["fast", "hf"], default="fast",
                   help="'fast' (default): engine/fast.py; 'hf': stock transformers generate(do_sample=False)")
    g.add_argument("--dtype", choices=["float32", "bfloat16"], default="float32")
    g.add_argument("--device", default="cpu", help="'cpu' (default) or 'cuda[:N]'")
    g.add_argument("--json", action="store_true", help="print one JSON object")

    b = sub.add_parser("build", help="build the GPU checkpoint (a Qwen3.5 model), alone or merged into a base",
                       description=BUILD_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--out", metavar="DIR", help="where to write it (default: the model cache, "
                   "$QGPU_MODELS or ~/.cache/qgpu/models)")
    b.add_argument("--machine", metavar="N:B", default=DEFAULT.name,
                   help=f"the machine the circuit implements: N instructions per block, a B-block ROM (default "
                        f"{DEFAULT.name}; B at most {MAX_ROM_BLOCKS}). Fewer instructions make a smaller, faster "
                        "model and more, shorter blocks; a kernel with more blocks than B keeps the machine's "
                        "own div/rem, which the circuit lacks")
    b.add_argument("--base", metavar="BASE", help="merge: put the circuit in front of this Qwen3.5 checkpoint's "
                   "layers (a local directory or a hub id; text-only or multimodal); --out is then required")

    m = sub.add_parser("check-merge", help="measure how far a merged checkpoint's text is from its base's",
                       description=CHECK_MERGE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    m.add_argument("base", metavar="BASE", help="the base checkpoint directory")
    m.add_argument("merged", metavar="MERGED", help="the merged checkpoint directory ('qgpu build --base')")
    m.add_argument("--text", metavar="FILE", help="UTF-8 text to read (default: tests/data/standin_corpus.txt)")
    m.add_argument("--max-tokens", type=_positive, default=512, help="text tokens to read (default 512)")
    m.add_argument("--kernel", metavar="FILE.cu", help="the launch before the after-launch text "
                   "(default: samples/vector_add.cu; its header's arguments)")
    m.add_argument("--no-launch", action="store_true", help="skip the after-launch numbers")
    m.add_argument("--engine", choices=["hf", "fast"], default="hf",
                   help="'hf' (default): stock transformers for both checkpoints; 'fast': engine/fast.py")
    m.add_argument("--dtype", choices=["float32", "bfloat16"], default="float32")
    m.add_argument("--json", action="store_true", help="print one JSON object")
    ch = sub.add_parser("chat", help="talk to a merged checkpoint in a terminal screen with the machine's panes",
                        description=CHAT_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    ch.add_argument("--model", metavar="MERGED", required=True, help="a merged checkpoint directory ('qgpu build --base')")
    _chat_options(ch)
    ch.add_argument("--assistant-text", action="append", metavar="TEXT",
                    help="FORCE the assistant's text of the next question (one per question, in order; "
                         "labelled in the conversation). /force TEXT does the same inside the chat.")
    a = sub.add_parser("ask", help="one question to a merged checkpoint: its expression or kernel runs inside the model",
                       description=ASK_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("model", metavar="MERGED", help="a merged checkpoint directory ('qgpu build --base')")
    a.add_argument("question")
    _chat_options(a)
    a.add_argument("--assistant-text", action="append", metavar="TEXT",
                   help="FORCE the assistant's text instead of letting the model write it (what a capable "
                        "model would write: an expression, or a ```cuda block); give it twice in advanced "
                        "mode to force the retry after an error too. Everything else runs for real.")
    a.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def _chat_options(p: argparse.ArgumentParser) -> None:
    from app.chat.session import MAX_STEPS, TEXT_TOKENS

    p.add_argument("--mode", choices=["normal", "advanced"], default="normal",
                   help="normal (default): the model writes an expression (app/chat/expr.py); "
                        "advanced: the model writes a CUDA kernel")
    p.add_argument("--max-steps", type=_positive, default=MAX_STEPS,
                   help=f"EXEC steps after which a launch is stopped (default {MAX_STEPS})")
    p.add_argument("--max-text-tokens", type=_positive, default=TEXT_TOKENS,
                   help=f"tokens the model may generate per text (default {TEXT_TOKENS})")
    p.add_argument("--engine", choices=["fast", "hf"], default="fast")
    p.add_argument("--dtype", choices=["float32", "bfloat16"], default="float32")


CHECK_MERGE_HELP = """Read a text with the base and with the merged checkpoint and compare their next-token
distributions position by position: KL(base || merged) over the base's vocabulary (mean, max), the
probability mass the merged model puts on circuit tokens (mean, max) and greedy agreement; then the
same for the text read after a launch (the merged model generates the kernel's launch first,
checked against the interpreter). Exit status 1 when plain text misses a target (mean KL <= 1e-6,
circuit mass <= 1e-6, equal tokenization); the after-launch numbers are reported, not judged.
"""


CHAT_HELP = """Talk to a merged checkpoint: a conversation in Qwen3.5's chat template, an input line, and
the debugger's machine panes (warps, registers, memory, tokens) updating live while each launch
runs inside the model, one forward pass at a time. /help lists the commands (/mode, /reset, /panel,
/force, /debug opens the last launch in qgpu-debug, /quit). See 'qgpu ask --help' for how a turn runs.
"""


ASK_HELP = """Ask a merged checkpoint one question (the bridge). The model answers in Qwen3.5's chat
template: in normal mode with an expression such as '[1, 2, 3] @ [4, 5, 6]' (each operation runs as
a ready-made kernel from samples/), in advanced mode with a CUDA kernel in a ```cuda block (compiled
by qgpu's kernel compiler). Every launch runs inside the same context: the model generates it, the
result is read from its recurrent state, replayed against the interpreter token by token, and put
back into the conversation; then the model finishes its answer.

No capable model is reachable here: --assistant-text forces the assistant's text (clearly labelled
in the output); the model's final answer is always generated. Exit status 0 when every launch was
exact, 1 when one departed or an error remained, 2 for bad input.
"""


BUILD_HELP = """Compute every weight of the GPU circuit and write a checkpoint directory that plain
transformers loads (AutoModelForCausalLM / AutoTokenizer.from_pretrained): config.json,
model-*.safetensors shards, tokenizer files, and qgpu_layout.json (the machine and where its state
lives). 'qgpu run --backend model' builds the default one on first use.

With --base BASE: the merged checkpoint (compiler/merge.py) — the circuit's layers in front of the
base's, hidden = circuit channels + 1 flag channel + the base's channels, the base's vocabulary
unchanged with the circuit's tokens added as special tokens <|qgpu:NAME|>. Check it with
'qgpu check-merge BASE DIR' and run kernels on it with 'qgpu run --backend model --model DIR'.
"""


GENERATE_HELP = """Print the greedy continuation of token ids on any Qwen3.5 text checkpoint (text-only or
the text part of a multimodal one), computed by the fast engine or by stock transformers: the two
must agree. Generation stops after --max-new-tokens or at the checkpoint's eos_token_id.
"""


def cmd_generate(ns: argparse.Namespace) -> int:
    import torch

    _check_device(ns.device)
    path = Path(ns.model)
    if not (path / "config.json").exists():
        raise LaunchError(f"{path}: not a checkpoint directory (no config.json)")
    try:
        ids = [int(t) for t in ns.ids.split(",") if t.strip()]
    except ValueError:
        raise LaunchError(f"--ids {ns.ids!r}: expected comma-separated integers") from None
    if not ids:
        raise LaunchError("--ids: give at least one token id")
    raw = json.loads((path / "config.json").read_text())
    cfg = raw.get("text_config", raw)
    eos = cfg.get("eos_token_id", raw.get("eos_token_id"))
    eos = eos[0] if isinstance(eos, list) else eos
    bad = [i for i in ids if not 0 <= i < cfg["vocab_size"]]
    if bad:
        raise LaunchError(f"--ids: {bad} outside the vocabulary (0..{cfg['vocab_size'] - 1})")
    if ns.engine == "fast":
        from engine.fast import FastModel

        new = FastModel(path, ns.dtype, ns.device, _progress).generate(ids, ns.max_new_tokens, eos)
    else:
        from transformers import AutoModelForCausalLM

        m = AutoModelForCausalLM.from_pretrained(path, dtype=getattr(torch, ns.dtype)).eval().to(ns.device)
        with torch.no_grad():
            out = m.generate(torch.tensor([ids], device=ns.device), max_new_tokens=ns.max_new_tokens,
                             do_sample=False, eos_token_id=eos, pad_token_id=cfg.get("pad_token_id") or 0)
        new = out[0, len(ids):].tolist()
    if ns.json:
        print(json.dumps({"model": str(path), "engine": ns.engine, "dtype": ns.dtype, "ids": ids, "new_ids": new}))
    else:
        print(",".join(map(str, new)))
    return 0


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {v}")
    return v


def cmd_compile(ns: argparse.Namespace) -> int:
    from compiler.errors import CompileError
    from compiler.kernel_compiler import compile_file

    cfg = machine_for(ns.model, ns.machine)
    try:
        prog = compile_file(ns.file, ns.kernel, cfg)
    except CompileError as e:
        if e.ptx and not ns.json and not ns.no_ptx:  # CUDA compiled: show the PTX the error points into
            print(f"// ===== PTX of {ns.file} =====")
            print(e.ptx.rstrip())
        raise
    if ns.json:
        from compiler.program_io import program_to_json

        print(json.dumps(program_to_json(prog), indent=1))
        return 0
    if not ns.no_ptx:
        print(f"// ===== PTX of {ns.file} =====")
        print(prog.ptx.rstrip())
        print()
    print(f"; ===== machine blocks: kernel {prog.kernel} =====")
    print(f"; for {cfg.describe()}")
    print(f"; {len(prog.blocks)} of {cfg.rom_blocks} ROM blocks, {prog.regs_used} of "
          f"{cfg.usable_regs} registers, {prog.preds_used} of {cfg.preds} predicates, "
          f"{prog.shared_words} shared words per CTA, {prog.local_words} local words per thread")
    if prog.spill_words:
        print(f"; {prog.spill_words} values spilled to local memory: they did not fit in the registers")
    if prog.unroll != "default":
        which = "loops without an unroll pragma" if prog.unroll == "rolled" else "every loop (pragmas overridden)"
        print(f"; compiled with loop unrolling off for {which}: unrolled, the kernel did not fit the machine")
    params = ", ".join(f"{i}: {p.ctype} {p.name}" for i, p in enumerate(prog.params))
    print(f"; params: {params or 'none'}")
    print(prog.listing())
    return 0


def cmd_run(ns: argparse.Namespace) -> int:
    from engine.interpreter import Interpreter

    prog, launch, grid, block = _launch_for(ns, machine_for(ns.model, ns.machine))
    interp = Interpreter(prog, launch, max_steps=ns.max_steps)
    result = _run_with_progress(interp)
    arrays = {}
    for p in prog.params:
        if p.is_pointer:
            vals = result.arrays[p.name]
            arrays[p.name] = list(vals) if p.unsigned else [s32(v) for v in vals]
    if ns.json:
        out = {"kernel": prog.kernel, "grid": grid, "block": block, "backend": ns.backend,
               "steps": len(result.trace), "arrays": arrays}
        if ns.trace:
            out["trace"] = [ev.to_json() for ev in result.trace]
        print(json.dumps(out))
        return 0
    if ns.trace:
        for ev in result.trace:
            print(_trace_line(ev, launch.layout))
    print(f"kernel {prog.kernel}: grid {grid} x block {block}, {len(result.trace)} EXEC steps ({ns.backend})")
    width = max(len(n) for n in arrays) if arrays else 0
    for name, vals in arrays.items():
        print(f"  {name:<{width}} = [{', '.join(str(v) for v in vals)}]")
    return 0


def _progress(msg: str) -> None:
    print(f"qgpu: {msg}", file=sys.stderr, flush=True)


def cmd_build(ns: argparse.Namespace) -> int:
    from compiler.circuit.build import build_checkpoint

    cfg = machine_for(None, ns.machine)
    if cfg.rom_blocks > MAX_ROM_BLOCKS:
        print(f"qgpu build: error: --machine {ns.machine}: the circuit holds at most {MAX_ROM_BLOCKS} "
              "ROM blocks (a lane's pc entry is one value head)", file=sys.stderr)
        return 2
    if ns.base:
        from compiler.merge import build_merged

        if not ns.out:
            raise LaunchError("--base: give --out DIR (a merged checkpoint is not a cached default)")
        build_merged(ns.base, ns.out, cfg, _progress)
        return 0
    build_checkpoint(ns.out, cfg, _progress)
    return 0


def cmd_check_merge(ns: argparse.Namespace) -> int:
    from engine.merge_check import DEFAULT_KERNEL, DEFAULT_TEXT, check_merge, format_report

    for d in (ns.base, ns.merged):
        if not (Path(d) / "config.json").exists():
            raise LaunchError(f"{d}: not a checkpoint directory (no config.json)")
    text_file = Path(ns.text) if ns.text else DEFAULT_TEXT
    try:
        text = text_file.read_text(encoding="utf-8")
    except OSError as e:
        raise LaunchError(f"--text {text_file}: {e.strerror}") from None
    kernel = None if ns.no_launch else (ns.kernel or DEFAULT_KERNEL)
    r = check_merge(ns.base, ns.merged, text, engine=ns.engine, dtype=ns.dtype, max_tokens=ns.max_tokens,
                    kernel=kernel, progress=_progress)
    r["text_file"] = str(text_file)
    print(json.dumps(r) if ns.json else format_report(r))
    return 0 if r["ok"] else 1


def cmd_ask(ns: argparse.Namespace) -> int:
    from app.chat.session import ChatSession
    from engine.model import GpuModel

    path = Path(ns.model)
    if not (path / "config.json").exists():
        raise LaunchError(f"{path}: not a checkpoint directory (no config.json)")
    _progress(f"loading {path} ({ns.engine} engine, {ns.dtype})")
    chat = ChatSession(GpuModel(path, ns.dtype, engine=ns.engine, progress=_progress), ns.mode,
                       max_steps=ns.max_steps, text_tokens=ns.max_text_tokens)
    turn = chat.ask(ns.question, ns.assistant_text)
    if ns.json:
        print(json.dumps(turn.summary()))
    else:
        print(format_turn(turn))
    return 0 if turn.exact and turn.error is None else 1


def cmd_chat(ns: argparse.Namespace) -> int:
    from app.chat.tui import ChatApp
    from engine.model import GpuModel

    path = Path(ns.model)
    if not (path / "config.json").exists():
        raise LaunchError(f"{path}: not a checkpoint directory (no config.json)")
    ChatApp(lambda progress: GpuModel(path, ns.dtype, engine=ns.engine, progress=progress), mode=ns.mode,
            forced=ns.assistant_text, model_dir=str(path), engine=ns.engine, dtype=ns.dtype,
            max_steps=ns.max_steps, text_tokens=ns.max_text_tokens).run()
    return 0


def format_turn(turn) -> str:
    """A turn as the terminal shows it: who wrote what, each launch, the result, the answer."""
    return "\n".join([f"user: {turn.question}"] + [f"{label}: {text}" for _, label, text in turn.lines()])


def _launch_for(ns: argparse.Namespace, cfg):
    from app.launching import launch_for

    k = launch_for(ns.file, ns.kernel, ns.grid, ns.block, ns.args, cfg)
    return k.program, k.launch, k.grid, k.block


def _check_device(device: str) -> None:
    """Refuse a device torch cannot use before the checkpoint is built or loaded (minutes)."""
    import torch

    try:
        dev = torch.device(device)
    except RuntimeError:
        raise LaunchError(f"--device {device}: not a torch device; use 'cpu' or 'cuda[:N]'") from None
    if dev.type == "cpu":
        return
    if dev.type != "cuda":
        raise LaunchError(f"--device {device}: only 'cpu' and 'cuda[:N]' are supported")
    if not torch.cuda.is_available():
        raise LaunchError(f"--device {device}: torch sees no CUDA device (torch {torch.__version__}, "
                          f"built {'with CUDA ' + torch.version.cuda if torch.version.cuda else 'for CPU only'})")
    if dev.index is not None and dev.index >= torch.cuda.device_count():
        raise LaunchError(f"--device {device}: torch sees {torch.cuda.device_count()} CUDA device(s)")


def cmd_run_model(ns: argparse.Namespace) -> int:
    """Run a launch on the GPU checkpoint; with --check-replay, against the interpreter."""
    from compiler.circuit.protocol import parse_trace, trace_tokens
    from engine.interpreter import Interpreter
    from engine.model import GpuModel

    from compiler.circuit.gpu import unsupported

    _check_device(ns.device)
    path = checkpoint_for(ns.model, ns.machine, _progress)
    gpu = GpuModel(path, ns.dtype, ns.device, engine=ns.engine, progress=_progress)
    prog, launch, grid, block = _launch_for(ns, gpu.machine)
    missing = unsupported(prog, launch)
    if missing:
        _progress(f"warning: the circuit does not implement {', '.join(missing)} yet; the model's trace "
                  "will depart from the interpreter's (--check-replay shows where)")
    want = ref = None
    if ns.check_replay:
        ref = Interpreter(prog, launch, gpu.machine, max_steps=ns.max_steps).run()
        want = trace_tokens(ref.trace)
    fault = None
    if ns.inject:
        from engine.faults import exec_positions, inject_model, parse_fault

        fault = parse_fault(ns.inject, launch, gpu.machine, len(exec_positions(want)) if want else None)
        if fault.silences:
            from engine.faults import check_unit

            check_unit(fault, path)
    injected: dict = {}

    def inject() -> None:
        old, new = inject_model(run, fault)
        injected.update(spec=fault.text, where=fault.where(), step=fault.step)
        if fault.silences:
            injected.update(silenced=bool(old))
            _progress(f"fault {fault.text}: {fault.where()} silenced from EXEC step {fault.step} on"
                      + ("" if old else " (its weights give it no output already: nothing changes)"))
        else:
            injected.update(old=old, new=new)
            _progress(f"fault {fault.text}: {fault.where()} {old:#x} -> {new:#x} before EXEC step {fault.step}")
    prefix = []
    if ns.text_before:
        if "merge" not in gpu.layout:
            raise LaunchError(f"--text-before: {path} is the circuit alone (no text tokens); "
                              "use a merged checkpoint ('qgpu build --base')")
        prefix = gpu.tokenizer(ns.text_before)["input_ids"]
    run = gpu.start(prog, launch, prefix=prefix)
    limit = len(want) if want is not None else 40 * ns.max_steps
    show = sys.stderr.isatty()
    if ns.teacher_forced:
        if want is None:
            raise LaunchError("--teacher-forced needs --check-replay (it checks the interpreter's trace)")
        parts = [want]
        if fault is not None:  # force up to the fault's EXEC token, inject, force the rest
            cut = exec_positions(want)[fault.step] + 1
            parts = [want[:cut], want[cut:]]
        for k, part in enumerate(parts):
            if k:
                inject()
            if run.force(part) is not None:
                _report_mismatch(run.generated, want, run.prompt)
                return 4
    execs = sum(is_exec(t) for t in run.generated)
    while not run.done and len(run.generated) < limit:
        if fault is not None and not injected and execs == fault.step + 1:
            inject()  # the pending input is this step's EXEC token: the model reads the fault with it
        tok = run.step()
        execs += is_exec(tok)
        n = len(run.generated)
        if show and n % 10 == 0:
            print(f"\r  model: {n} tokens", end="", file=sys.stderr, flush=True)
        if want is not None and tok != want[n - 1]:
            if show:
                print("\r" + " " * 30 + "\r", end="", file=sys.stderr)
            _report_mismatch(run.generated, want, run.prompt)
            return 4
    if show:
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr, flush=True)
    if not run.done:
        raise LaunchError(f"the model did not end the launch within {limit} tokens")
    if fault is not None and not injected:
        raise LaunchError(f"--inject {fault.text}: the launch ended after {execs} EXEC steps, before step "
                          f"{fault.step}: the fault was never applied")
    steps, _ = parse_trace(run.generated)
    words = run.memory()
    bad = run.low_margins()
    if bad:
        print(f"qgpu: error: {len(bad)} codes of the state read with a failed margin (corrupt state): "
              + "; ".join(bad[:8]) + (f"; … {len(bad) - 8} more" if len(bad) > 8 else ""), file=sys.stderr)
        return 4
    if ref is not None:  # the tokens agreed; so must every memory word at the end
        differ = [a for a, w in enumerate(words) if w.value != ref.memory[a] & 0xFFFFFFFF]
        if differ:
            print(f"qgpu: error: replay mismatch in the final memory: {len(differ)} words differ from the "
                  "interpreter's: " + "; ".join(f"word {a}: model {words[a].value}, interpreter "
                                                 f"{ref.memory[a] & 0xFFFFFFFF}" for a in differ[:8]), file=sys.stderr)
            return 4
    arrays = {}
    for p in prog.params:
        if p.is_pointer:
            base, n = launch.layout.arrays[p.name]
            vals = [words[base + k].value for k in range(n)]
            arrays[p.name] = vals if p.unsigned else [s32(v) for v in vals]
    if ns.json:
        out = {"kernel": prog.kernel, "grid": grid, "block": block, "backend": "model", "engine": ns.engine,
               "dtype": ns.dtype, "device": ns.device,
               "steps": len(steps), "tokens": len(run.generated), "prompt_tokens": len(run.prompt),
               "arrays": arrays}
        if injected:
            out["fault"] = injected
        if ns.check_replay:
            out["replay"] = "exact"
            out["replay_mode"] = "teacher-forced" if ns.teacher_forced else "generated"
        if ns.trace:
            out["trace_tokens"] = run.generated
        print(json.dumps(out))
        return 0
    if ns.trace:
        print(" ".join(run.generated))
    tail = (", replay exact" + (" (teacher-forced)" if ns.teacher_forced else "")) if ns.check_replay else ""
    print(f"kernel {prog.kernel}: grid {grid} x block {block}, {len(steps)} EXEC steps, "
          f"{len(run.generated)} generated tokens (model, {ns.dtype}{tail})")
    width = max(len(n) for n in arrays) if arrays else 0
    for name, vals in arrays.items():
        print(f"  {name:<{width}} = [{', '.join(str(v) for v in vals)}]")
    return 0


def _report_mismatch(got: list[str], want: list[str], prompt: list[str]) -> None:
    i = len(got) - 1
    step = sum(is_exec(t) for t in want[:i + 1]) - 1
    ctx = " ".join(want[max(0, i - 6):i])
    print(f"qgpu: replay mismatch at generated token {i} (EXEC step {step}, both counted from 0):\n"
          f"  after: ... {ctx}\n  model:       {got[i]}\n  interpreter: {want[i]}", file=sys.stderr)


def _run_with_progress(interp):
    """Run to the end; on a terminal, long launches show their step count on stderr."""
    show = sys.stderr.isatty()
    while interp.step() is not None:
        if show and len(interp.trace) % 20000 == 0:
            print(f"\r  running: {len(interp.trace):,} EXEC steps", end="", file=sys.stderr, flush=True)
    if show and len(interp.trace) >= 20000:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)
    return interp.result()


def _trace_line(ev, layout) -> str:
    """One EXEC step: block, warp, lanes, register writes (per lane) and memory writes."""
    lanes = "".join("x" if ev.mask >> i & 1 else "." for i in range(DEFAULT.lanes))
    regs: dict[int, list[str]] = {}
    for lane in range(DEFAULT.lanes):
        for r, v in ev.reg_writes.get(lane, {}).items():
            regs.setdefault(r, ["-"] * DEFAULT.lanes)[lane] = str(s32(v))
    parts = [f"r{r}=[{','.join(vals)}]" for r, vals in sorted(regs.items())]
    parts += [f"{layout.owner(w)}<-{s32(v)}" for w, v in ev.mem_writes]
    exits = [lane for lane, pc in ev.next_pcs.items() if pc is None]
    if exits:
        parts.append("exit lanes " + ",".join(map(str, exits)))
    return f"step {ev.step:4d}  EXEC(B{ev.block},w{ev.warp})  lanes {lanes}  " + "  ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    # NAME=VALUES may come before, between or after options (argparse alone
    # stops collecting positionals at the first option)
    ns, extra = parser.parse_known_args(argv)
    stray = [a for a in extra if a.startswith("-") or ns.command != "run"]
    if stray:
        parser.error(f"unrecognized arguments: {' '.join(stray)}")
    if extra:
        ns.args = list(ns.args) + extra
    return exit_status("qgpu", lambda: _dispatch(ns))


def _dispatch(ns: argparse.Namespace) -> int:
    if ns.command == "compile":
        return cmd_compile(ns)
    if ns.command == "build":
        return cmd_build(ns)
    if ns.command == "generate":
        return cmd_generate(ns)
    if ns.command == "check-merge":
        return cmd_check_merge(ns)
    if ns.command == "ask":
        return cmd_ask(ns)
    if ns.command == "chat":
        return cmd_chat(ns)
    if ns.backend == "model":
        return cmd_run_model(ns)
    if ns.check_replay or ns.teacher_forced:
        raise LaunchError("--check-replay compares the model with the interpreter: use it with --backend model")
    if ns.device != "cpu" or ns.dtype != "float32" or ns.engine != "fast" or ns.text_before or ns.inject:
        raise LaunchError("--device, --dtype, --engine, --text-before and --inject say how the model runs: use them "
                          "with --backend model")
    return cmd_run(ns)


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
