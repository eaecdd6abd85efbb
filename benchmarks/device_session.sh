#!/usr/bin/env bash
# One session on a borrowed NVIDIA GPU machine (the device tool's `run`), in the repository root:
#   1. record what the GPU computes for every kernel with a launch header (tests/hw/record.py:
#      samples/, tests/suite*/), for tests/test_hw_recorded.py;
#   2. build the default checkpoint there and time the model on the GPU (benchmarks/model_step.py)
#      and replay the samples teacher-forced in bfloat16 and float32 (benchmarks/replay_samples.py).
# Every part has its own time limit and writes to $OUT as it goes, so a part that fails or runs
# out of time leaves the others' results. Needs python3 with torch + transformers, and nvcc.
# Run: bash benchmarks/device_session.sh        (OUT defaults to /tmp/device-out)
set -u
OUT=${OUT:-/tmp/device-out}
mkdir -p "$OUT/rec"
export PYTHONUNBUFFERED=1
START=$(date +%s)
stamp() { echo "== $1 at +$(( $(date +%s) - START )) s"; }

{
  stamp env
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  echo "cpus: $(nproc)"
  python3 -c "import torch, transformers; print('torch', torch.__version__, '| transformers', transformers.__version__, '| cuda matmul allow_tf32', torch.backends.cuda.matmul.allow_tf32)"
  nvcc --version | tail -2
} 2>&1 | tee "$OUT/env.txt"

stamp record | tee "$OUT/record.log"
timeout 300 python3 tests/hw/record.py -j 16 --out "$OUT/rec" \
  samples/*.cu tests/suite/*.cu tests/suite2/*.cu tests/suite3/*.cu 2>&1 | tee -a "$OUT/record.log"

CK=/tmp/qgpu-ck
{ stamp build; timeout 300 python3 -m app.cli build --out "$CK" 2>&1 | tail -3; stamp built; } 2>&1 | tee "$OUT/model.log"
for dt in float32 bfloat16; do
  { stamp "step $dt"; timeout 90 python3 benchmarks/model_step.py --model "$CK" --dtype "$dt" --device cuda samples/dot.cu; } 2>&1 | tee -a "$OUT/model.log"
done
for dt in bfloat16 float32; do
  { stamp "replay $dt"; timeout 240 python3 benchmarks/replay_samples.py --model "$CK" --dtype "$dt" --device cuda; stamp "replayed $dt"; } 2>&1 | tee "$OUT/replay_$dt.md"
done
stamp done
