"""List the devices and measure the memory bandwidth of one of them."""
import sys

import tessera

for d in tessera.devices():
    print(f"{d['id']:12} {d['backend']:7} {d['name']}  {d['global_mem_bytes'] / 2**30:.1f} GiB")

dev = sys.argv[1] if len(sys.argv) > 1 else "best"
report = tessera.stream(dev, size=1 << 22, precision="double", reps=5)
r = report["devices"][0]
print(f"\n{r['device']['name']}: copy {r['copy_gbps']:.1f} GB/s")
for m in r["results"]:
    print(f"  {m['kernel']:14} {m['gbps']:8.1f} GB/s  {100 * m['fraction_of_copy']:5.1f}% of copy")
