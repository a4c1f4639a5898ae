# Issue 40 (Reliability II): every option value used or refused, runs that
# cannot end refused up front, output paths probed before any work, restarts
# that refuse other options and continue the straight run's output schedule,
# signals seen while the device works, and the option fuzzer.
set(OPT_DIR ${CMAKE_CURRENT_BINARY_DIR}/options_cli)
file(MAKE_DIRECTORY ${OPT_DIR})
file(WRITE ${OPT_DIR}/a_file "not a folder\n")
set(OPT_RUN ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:tessera_cli>)
set(OPT_CHECK -P ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
# opt_case(name EXPECT MATCH arg|arg|...): one run, its exit code and message.
function(opt_case name expect match args)
  add_test(NAME ${name} COMMAND ${OPT_RUN} -DARGS=${args} -DEXPECT=${expect} -DMATCH=${match} ${ARGN} ${OPT_CHECK})
  set_tests_properties(${name} PROPERTIES LABELS reliability TIMEOUT 120
                       ENVIRONMENT "TESSERA_CACHE_DIR=${OPT_DIR}/cache")
endfunction()

# --- a given value is used or refused (exit 2, naming the option), never read
#     as "not given": NaN, inf, zero and negative values where they mean nothing ---
set(OPT_SWE swe|--case|stoker|--nx|16|--device|cpu)
set(OPT_LBM lbm|--case|cavity|--lattice|D2Q9|--size|12|--steps|10|--device|cpu)
set(OPT_MG mg|--dim|2|--n|15|--max-cycles|3|--device|cpu)
set(OPT_SOLVE solve|--generate|trace:3x5x4|--max-iters|30|--device|cpu)
foreach(c "swe|--t-end|nan" "swe|--t-end|inf" "swe|--t-end|0" "swe|--t-end|-1" "swe|--manning|nan"
          "swe|--manning|-1" "swe|--level|nan" "swe|--cfl|0" "swe|--cfl|nan" "swe|--dt|0" "swe|--dt|-1"
          "swe|--every-time|0" "swe|--h-left|nan" "swe|--nx|0"
          "lbm|--tau|nan" "lbm|--tau|0.5" "lbm|--re|nan" "lbm|--re|0" "lbm|--re|-100" "lbm|--diameter|0"
          "lbm|--diameter|nan" "lbm|--u|nan" "lbm|--u|inf" "lbm|--slice-z|-1"
          "lbm|--trt-magic|nan" "lbm|--trt-magic|0" "lbm|--trt-magic|-0.1"
          "mg|--omega|nan" "mg|--omega|0" "mg|--omega|2" "mg|--tol|nan" "mg|--tol|-1"
          "solve|--tol|nan" "solve|--tol|-1" "solve|--tol|inf")
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 cmd)
  list(GET parts 1 opt)
  list(GET parts 2 val)
  string(TOUPPER ${cmd} CMD)
  string(REGEX REPLACE "^--" "" o "${opt}")
  opt_case(options.${cmd}_${o}_${val}_exit2 2 "${opt}" "${OPT_${CMD}}|${opt}|${val}")
endforeach()

# a variant name the suite does not know is refused, not skipped
opt_case(options.bench_swe_variants_unknown_exit2 2 "--param.variants:.unknown.thesis.variant.'v9-bogus'"
         "bench|swe|--device|cpu|--quick|--param|variants=v5-pingpong,v9-bogus")
# a lattice the case does not run on is refused, not replaced by its own
# --png-range: two finite values, LO below HI
opt_case(options.swe_png_range_reversed_exit2 2 "--png-range.2.1:.expected.finite.LO.<.HI"
  "${OPT_SWE}|--png-range|2|1")
opt_case(options.swe_png_range_nan_exit2 2 "--png-range" "${OPT_SWE}|--png-range|nan|1")
opt_case(options.swe_png_range_one_value_exit2 2 "--png-range" "${OPT_SWE}|--png-range|1")
# --trt-magic sets TRT's odd rate: with BGK it would be ignored, so it is refused
opt_case(options.lbm_trt_magic_with_bgk_exit2 2 "--trt-magic.0.1:.it.sets.TRT"
  "${OPT_LBM}|--trt-magic|0.1")
opt_case(options.lbm_trt_magic_used 0 "TRT.Lambda.0.1[,)]" "${OPT_LBM}|--collision|trt|--trt-magic|0.1")
opt_case(options.lbm_sphere_lattice_D3Q27_exit2 2 "--lattice.D3Q27:.the.sphere.case.runs.on.D3Q19.only"
         "lbm|--case|sphere|--lattice|D3Q27|--size|32|16|16|--steps|1|--device|cpu")
opt_case(options.lbm_sphere_lattice_D2Q9_exit2 2 "--lattice.D2Q9:.the.sphere.case.runs.on.D3Q19.only"
         "lbm|--case|sphere|--lattice|D2Q9|--steps|1|--device|cpu")

# --- runs that cannot end in a representable number of steps or outputs:
#     refused before they start (exit 2, saying why and the limit) ---
opt_case(options.swe_thesis_dt_1e-300_exit2 2 "--dt.*2e.301 steps.*2.53"
  "swe|--model|thesis|--nx|16|--dt|1e-300|--device|cpu|--out|${OPT_DIR}/dt_thesis" -DNOT_EXISTS=${OPT_DIR}/dt_thesis)
opt_case(options.swe_thesis_dt_1e-20_exit2 2 "steps.*2.53" "swe|--model|thesis|--nx|16|--dt|1e-20|--device|cpu")
opt_case(options.swe_physical_dt_1e-300_exit2 2 "steps.*2.53" "${OPT_SWE}|--dt|1e-300")
opt_case(options.swe_physical_cfl_4.9e-324_exit2 2 "first.CFL.step.*2.53.*raise.--cfl" "${OPT_SWE}|--cfl|4.9e-324")
opt_case(options.swe_float_clock_exit2 2 "resolution.of.the.solver's.clock"
  "${OPT_SWE}|--precision|float|--dt|1e-7|--t-end|100")
opt_case(options.swe_every_time_outputs_exit2 2 "--every-time.*outputs" "${OPT_SWE}|--every-time|1e-300")

# --- comma-separated lists (option_checks.hpp: split_list): an empty item is
#     refused (exit 2) naming the option and the value, nothing written ---
opt_case(options.swe_format_empty_item_exit2 2 "--format 'vti,,png': an empty item"
  "${OPT_SWE}|--format|vti,,png|--out|${OPT_DIR}/format_empty" -DNOT_EXISTS=${OPT_DIR}/format_empty)
opt_case(options.report_suites_empty_item_exit2 2 "--suites 'stream,': an empty item"
  "report|--quick|--device|cpu|--no-python|--suites|stream,|--out|${OPT_DIR}/suites_empty"
  -DNOT_EXISTS=${OPT_DIR}/suites_empty)
opt_case(options.bench_param_empty_item_exit2 2 "--param variants ',v5-pingpong': an empty item"
  "bench|swe|--device|cpu|--size|48|--quick|--reps|1|--warmup|1|--param|variants=,v5-pingpong")

# --- options checked and output paths probed before anything is computed or
#     written (a bad option: exit 2; an output path that cannot be written:
#     exit 1, naming the option and the path; nothing left behind) ---
opt_case(options.lbm_png_bogus_nothing_written 2 "foo"
  "${OPT_LBM}|--png|foo|--out|${OPT_DIR}/png_bogus" -DNOT_EXISTS=${OPT_DIR}/png_bogus)
opt_case(options.lbm_json_under_a_file_exit1 1 "--json.*a_file.*not.a.folder"
  "${OPT_LBM}|--out|${OPT_DIR}/json_under_file|--json|${OPT_DIR}/a_file/s.json"
  -DNOT_EXISTS=${OPT_DIR}/json_under_file)
opt_case(options.mg_out_missing_folder_exit1 1 "--out.*the.folder.*does.not.exist"
  "${OPT_MG}|--out|${OPT_DIR}/no_such_folder/x.npy" -DNOT_EXISTS=${OPT_DIR}/no_such_folder)
opt_case(options.lbm_checkpoint_missing_folder_exit1 1 "--checkpoint.*the.folder.*does.not.exist"
  "${OPT_LBM}|--out|${OPT_DIR}/ckpt_out|--checkpoint|${OPT_DIR}/no_such_folder/c.ckpt"
  -DNOT_EXISTS=${OPT_DIR}/ckpt_out)
opt_case(options.lbm_checkpoint_into_out 0 "10.steps"
  "${OPT_LBM}|--out|${OPT_DIR}/ckpt_into_out/run|--checkpoint|${OPT_DIR}/ckpt_into_out/run/c.ckpt"
  -DEXISTS=${OPT_DIR}/ckpt_into_out/run/c.ckpt)
opt_case(options.lbm_checkpoint_dots_exit1 1 "--checkpoint.*the.folder.*does.not.exist"
  "${OPT_LBM}|--out|${OPT_DIR}/ckpt_dots/run|--checkpoint|${OPT_DIR}/ckpt_dots/run/sub/../c.ckpt"
  -DNOT_EXISTS=${OPT_DIR}/ckpt_dots)
string(REPEAT "x" 300 OPT_LONG)
opt_case(options.lbm_checkpoint_name_too_long_exit1 1 "--checkpoint.*longer.than"
  "${OPT_LBM}|--out|${OPT_DIR}/long_name|--checkpoint|${OPT_DIR}/${OPT_LONG}" -DNOT_EXISTS=${OPT_DIR}/long_name)
opt_case(options.lbm_checkpoint_is_a_folder_exit1 1 "--checkpoint.*it.is.a.folder" "${OPT_LBM}|--checkpoint|${OPT_DIR}")
# (an output path under a regular file, for every writer: fault.unwritable_*)

# --- LBM restart: options that differ from the checkpoint's run are refused,
#     naming what differs; the restarted run continues the straight run's
#     output schedule (multiples of --every), .pvd included, byte for byte ---
set(OPT_LBM_R lbm|--case|cavity|--lattice|D2Q9|--size|16|--every|100|--device|cpu)
add_test(NAME options.lbm_restart_clean COMMAND ${CMAKE_COMMAND} -E rm -rf ${OPT_DIR}/lbm_full ${OPT_DIR}/lbm_part)
set_tests_properties(options.lbm_restart_clean PROPERTIES FIXTURES_SETUP opt_lbm_clean)
opt_case(options.lbm_restart_full 0 "300.steps" "${OPT_LBM_R}|--steps|300|--out|${OPT_DIR}/lbm_full")
# the second look at the flag is after step 65 (a first piece of one step, then
# 64): not an output step
opt_case(options.lbm_restart_interrupt 130 "interrupted.by.SIGINT.after.step.65:"
  "${OPT_LBM_R}|--steps|300|--out|${OPT_DIR}/lbm_part|--checkpoint|${OPT_DIR}/lbm_part.ckpt"
  -DEXISTS=${OPT_DIR}/lbm_part.ckpt -DNOT_EXISTS=${OPT_DIR}/lbm_part/cavity_00000065.vti)
set_tests_properties(options.lbm_restart_interrupt PROPERTIES
  ENVIRONMENT "TESSERA_FAULT=sigint_at_step:2;TESSERA_CACHE_DIR=${OPT_DIR}/cache" FIXTURES_SETUP opt_lbm_int)
set_tests_properties(options.lbm_restart_full options.lbm_restart_interrupt PROPERTIES FIXTURES_REQUIRED opt_lbm_clean)
opt_case(options.lbm_restart_other_re_exit2 2 "another.run:.tau"
  "${OPT_LBM_R}|--steps|300|--re|400|--restart|${OPT_DIR}/lbm_part.ckpt")
opt_case(options.lbm_restart_other_collision_exit2 2 "collision.BGK.in.the.checkpoint,.TRT.in.the.run"
  "${OPT_LBM_R}|--steps|300|--collision|trt|--restart|${OPT_DIR}/lbm_part.ckpt")
opt_case(options.lbm_restart_other_u_exit2 2 "wall.velocity"
  "${OPT_LBM_R}|--steps|300|--u|0.05|--restart|${OPT_DIR}/lbm_part.ckpt")
opt_case(options.lbm_restart_steps_before_checkpoint_exit2 2 "checkpoint.is.already.at.step.65"
  "${OPT_LBM_R}|--steps|50|--restart|${OPT_DIR}/lbm_part.ckpt")
set_tests_properties(options.lbm_restart_other_re_exit2 options.lbm_restart_other_collision_exit2
  options.lbm_restart_other_u_exit2 options.lbm_restart_steps_before_checkpoint_exit2 PROPERTIES
  FIXTURES_REQUIRED opt_lbm_int)
opt_case(options.lbm_restart_continue 0 "235.steps"
  "${OPT_LBM_R}|--steps|300|--out|${OPT_DIR}/lbm_part|--restart|${OPT_DIR}/lbm_part.ckpt")
set_tests_properties(options.lbm_restart_continue PROPERTIES FIXTURES_REQUIRED opt_lbm_int FIXTURES_SETUP opt_lbm_done
  DEPENDS "options.lbm_restart_other_re_exit2;options.lbm_restart_other_collision_exit2;options.lbm_restart_other_u_exit2;options.lbm_restart_steps_before_checkpoint_exit2")
set_tests_properties(options.lbm_restart_full PROPERTIES FIXTURES_SETUP opt_lbm_done)
add_test(NAME options.lbm_restart_identical COMMAND ${CMAKE_COMMAND} -DA=${OPT_DIR}/lbm_full -DB=${OPT_DIR}/lbm_part
         "-DGLOB=*.vti|*.png|*.pvd" -P ${CMAKE_CURRENT_LIST_DIR}/../swe/compare_outputs.cmake)
set_tests_properties(options.lbm_restart_identical PROPERTIES FIXTURES_REQUIRED opt_lbm_done LABELS reliability)

# --- signals while the device works: a real SIGINT during a long stretch
#     between outputs (LBM: a 6-million-step chunk, whose steps the old loop
#     queued far ahead of an OpenCL device and then waited for; SWE physical:
#     --every 100000, which spaced its flag reads as far) is seen within a
#     piece or 16 steps (sigint_mid_chunk.sh) ---
# --- and an interrupted, restarted run writes the straight run's outputs
#     (LBM and SWE, restart_identical.sh) on every device of the build ---
set(OPT_DEVICES cpu)
if(TESSERA_HAVE_OPENCL)
  list(APPEND OPT_DEVICES opencl:0:0)
endif()
foreach(dev IN LISTS OPT_DEVICES)
  string(REGEX REPLACE "[^a-z0-9]" "_" d "${dev}")
  foreach(model lbm swe)
    add_test(NAME options.${model}_sigint_mid_stretch_${d} COMMAND ${CMAKE_CURRENT_LIST_DIR}/sigint_mid_chunk.sh
             $<TARGET_FILE:tessera_cli> ${OPT_DIR}/sig_${model}_${d} ${dev} ${model})
    set_tests_properties(options.${model}_sigint_mid_stretch_${d} PROPERTIES LABELS reliability TIMEOUT 600
                         ENVIRONMENT "TESSERA_CACHE_DIR=${OPT_DIR}/cache")
  endforeach()
  add_test(NAME options.restart_identical_${d} COMMAND ${CMAKE_CURRENT_LIST_DIR}/restart_identical.sh
           $<TARGET_FILE:tessera_cli> ${OPT_DIR}/restart_${d} ${dev})
  set_tests_properties(options.restart_identical_${d} PROPERTIES LABELS reliability TIMEOUT 600
                       ENVIRONMENT "TESSERA_CACHE_DIR=${OPT_DIR}/cache")
endforeach()

# --- the option fuzzer: a random sample of (option, value) pairs of every
#     command on the CPU (and PoCL); the full sweep is scripts/option-fuzz.sh ---
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  set(OPT_FUZZ_DEVICES --device cpu)
  if(TESSERA_HAVE_OPENCL)
    list(APPEND OPT_FUZZ_DEVICES --device opencl:0:0)
  endif()
  add_test(NAME options.fuzz_sample COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/option_fuzz.py
           $<TARGET_FILE:tessera_cli> ${OPT_FUZZ_DEVICES} --sample 160 --seed 40 --timeout 120)
  set_tests_properties(options.fuzz_sample PROPERTIES LABELS reliability TIMEOUT 900
                       ENVIRONMENT "TESSERA_CACHE_DIR=${OPT_DIR}/fuzz-cache")
  # one meaning per short option, -d/-o/-s/-n/-g where their long forms are,
  # --json [FILE] everywhere (issue 45, item 2)
  add_test(NAME options.conventions COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cli_conventions.py
           $<TARGET_FILE:tessera_cli>)
  set_tests_properties(options.conventions PROPERTIES LABELS reliability TIMEOUT 300
                       ENVIRONMENT "TESSERA_CACHE_DIR=${OPT_DIR}/conventions-cache")
endif()
