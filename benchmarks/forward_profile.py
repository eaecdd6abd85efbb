"""Where a teacher-forced forward pass of a GPU checkpoint spends its time (torch.profiler).

    python benchmarks/forward_profile.py CHECKPOINT_DIR [--tokens 500]

Loads the checkpoint with plain from_pretrained in float32, times one pass over random token ids
(the cost of a pass does not depend on which tokens they are: every matmul is dense), then prints
the profiler's top operators. docs/status.md reports the result.
"""

import argparse
import time

import torch
from transformers import AutoModelForCausalLM


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoint")
    ap.add_argument("--tokens", type=int, default=500)
    ns = ap.parse_args()
    m = AutoModelForCausalLM.from_pretrained(ns.checkpoint, dtype=torch.float32)
    ids = torch.randint(5, 100, (1, ns.tokens))
    with torch.no_grad():
        m(input_ids=ids[:, :50])  # warm-up
        t = time.time()
        m(input_ids=ids)
        dt = time.time() - t
        print(f"{ns.tokens} tokens in {dt:.1f} s: {1000 * dt / ns.tokens:.0f} ms per token")
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CPU]) as prof:
            m(input_ids=ids)
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=15))


if __name__ == "__main__":
    main()
