"""Published figures of the original studies, transcribed from the project's
study notes (/work/shared/spec/*-seed.md, /work/shared/reference/*.md; the
section is named with each table). Times in seconds unless stated."""

# --- Multigrid thesis (i5-750 single core vs Radeon HD 6870, 8191^2, float,
# 10 cycles V(0,nu), 4 queues; multigrid-seed.md §5.3 and §5.4) -------------
MG_DEVICE = "Intel i5-750 (1 core) / AMD Radeon HD 6870, PCIe 2.0"
MG_FULL = {2: (7.56, 4.2), 4: (11.67, 4.28), 8: (19.91, 4.88), 16: (36.38, 6.06)}  # nu: (CPU, GPU)
MG_FULL_NOTE = "nu = 128: no times published, 'about nine times faster' than the CPU"
# nu: (CPU, GPU plain, GPU with pinned staging, GPU staging + cache)
MG_SMOOTHER = {2: (0.31, 0.68, 0.24, 0.23), 4: (0.61, 0.71, 0.24, 0.24), 8: (1.22, 0.79, 0.24, 0.24),
               16: (2.46, 0.92, 0.29, 0.24)}
MG_SIZE = 8191

# --- Shallow water thesis (Radeon HD 5830, 1000^2, 3960 steps = 20 s
# simulated, whole-process wall clock; shallow-water-seed.md §4) -----------
SWE_DEVICE = "AMD Radeon HD 5830 (whole process: context, compilation, initialisation included)"
SWE_STEPS = 3960
SWE_SIZE = 1000
# tessera variant name: (thesis label, DP seconds, SP seconds)
SWE_VARIANTS = {
    "v0-naive": ("V0 first OpenCL (default work-group)", 99.719, 67.377),
    "v1-ghost-kernels": ("V1 ghost frame by kernels", 59.027, 46.138),
    "v1f4-ghost-kernels": ("V1f4 float4 row copy (SP only; Table 5.20)", None, 45.745),
    "v2a-local-edge": ("V2a local memory, edge from global", 67.765, 35.408),
    "v2b-local-halo": ("V2b local memory with halo", 66.485, 35.705),
    "v3-local-ghost-kernels": ("V3 = V2b + V1", 27.695, 15.508),
    "v4-inplace-racy": ("V4 in place, host ghosts", 55.540, 29.746),
    "v5-combined-racy": ("V5 combined (best: DP 8x8, SP 1x256)", 14.613, 7.655),
    "v5-pingpong": ("V5 combined (best: DP 8x8, SP 1x256)", 14.613, 7.655),
    "v7-reduced-items": ("V7 work-items = compute units", 2559.821, 1384.645),
}
SWE_SEQUENTIAL = (880.830, 1115.766)  # S2 flat arrays, one i7 core: DP, SP

# --- Sparse/GMRES thesis (TRACE cases; 100 GMRES iterations, one SpMV each,
# complex single; Tesla C1060 and Quadro 5000 (Fermi); MPI = 8 CPU cores;
# sparse-gmres-seed.md §5.3 Tables 6.1-6.11, §5.4 Tables 7.1/7.2) ---------
SPMV_CASES = ["10x40x20", "10x40x40", "20x40x20", "10x40x80", "10x80x40", "40x80x40"]
SPMV_MPI = [0.85, 1.67, 1.67, 3.31, 3.31, 13.23]
# tessera kernel: (thesis label, Tesla times per case, Fermi times per case); None = out of memory
SPMV_KERNELS = {
    "bcsr-v1a": ("OpenCL BCSR V1a", [21.45, 60.07, 60.01, 110.59, 110.62, 439.49],
                 [24.1, 59.77, 59.67, 118.28, 119.07, 470.95]),
    "bcsr-v2a": ("OpenCL BCSR V2a", [14.97, 43.89, 43.83, 80.56, 80.7, 305.34],
                 [14.77, 40.77, 40.61, 79.84, 79.09, 311.19]),
    "bcsr-v1b": ("OpenCL BCSR V1b", [10.75, 24.28, 24.48, 44.96, 45.69, 179.15],
                 [12.13, 24.07, 24.08, 47.33, 48.89, None]),
    "bcsr-v2b": ("OpenCL BCSR V2b", [4.24, 8.19, 8.23, 15.35, 15.49, 58.83], [2.77, 5.1, 5.07, 9.03, 9.03, None]),
    "bcsr-v3": ("OpenCL BCSR V3", [3.3, 6.58, 6.59, 12.45, 12.74, 48.87], [2.74, 5.06, 5.02, 8.96, 8.95, None]),
    "ell": ("OpenCL ELL (L = 20)", [2.18, 4.11, 3.87, 6.7, 7.12, 21.11], [1.61, 2.86, 2.76, 4.73, 4.7, None]),
    "ell-v2": ("OpenCL ELL V2", [2.56, 4.92, 4.82, 8.87, 8.64, 30.89], [1.71, 3.02, 2.94, 5.11, 5.03, None]),
    "bell": ("OpenCL BELL", [2.26, 4.37, 4.16, 7.43, 7.43, 27.12], [1.49, 2.69, 2.64, 4.46, 4.41, None]),
    "bell-v2": ("OpenCL BELL V2", [3.96, 7.25, 7.24, 13.12, 13.48, 48.55], [2.06, 3.75, 3.75, 6.66, 6.62, None]),
    "bell-v4": ("CUDA BELL V4", [1.94, 3.39, 3.23, 5.92, 6.04, 21.06], [1.28, 2.10, 2.02, 3.44, 3.45, None]),
}
SPMV_FLOPS_10x40x80 = 7.548e10  # operations of 100 iterations, BCSR and BELL (Table 7.1)
SPMV_LITERATURE = "Choi et al. (PPoPP 2010), Tesla C1060: BCSR 14-18 GFLOP/s, BELL 18-29 GFLOP/s"

# --- Reference figures on the project's H200 (measured-on-h200.md) ---------
H200 = {
    "copy": "4.29 TB/s device-to-device copy (cudaMemcpy, 2 GiB)",
    "triad": "4.14 TB/s FP64 triad",
    "sgemm": "50.7 TFLOP/s cuBLAS SGEMM n=8192 (no TF32)",
    "dgemm": "57.4 TFLOP/s cuBLAS DGEMM n=8192",
    "cusparse": "322 GFLOP/s cuSPARSE CSR SpMV FP64, 7-point Laplacian 256^3 (56% of copy)",
    "lbm": "FluidX3D D3Q19 SRT 256^3: 22,571 MLUPS FP32, 35,814 MLUPS FP16S",
    "swe": "naive fused LxF kernel 16384^2: 124 / 66 Gcell/s FP32 / FP64",
}
