#!/usr/bin/env bash
# The flood tutorial (docs/tutorials/swe-flood.md) end to end: a GeoTIFF DEM
# with its CRS, rain and an inflow hydrograph in, a maximum-depth GeoTIFF
# out, opened by GDAL. Usage: run.sh [TESSERA] [DEVICE] [WORKDIR]
# (defaults: build/bin/tessera, cpu, a temporary folder). T_END (10800 s)
# and ORDER (2) in the environment shorten it (the CI test: 1800 s, first
# order). Needs gdal-bin and a tessera built with GDAL.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tessera="${1:-$here/../../../build/bin/tessera}"
device="${2:-cpu}"
work="${3:-$(mktemp -d)}"
mkdir -p "$work" && cd "$work"
python3 "$here/make_valley.py"
# 1. the DEM as a GeoTIFF in UTM 33N (what a GIS exports)
gdal_translate -q -of GTiff -a_srs EPSG:32633 valley.asc valley.tif
# 2. the flood: rain on the valley, the river entering the channel at the
#    upstream end, leaving at the downstream end at its normal depth
"$tessera" swe --bathymetry valley.tif --level 0 --manning 0.035 \
  --rain storm.csv --losses green-ampt:10,110,0.3 \
  --inflow y-hi:500290:500310:river.csv --bc-segment y-lo:500280:500320:normal-depth \
  --t-end "${T_END:-10800}" --order "${ORDER:-2}" --device "$device" \
  --series-every 60 --gauge bridge:500300:4649500 --gauge field:500380:4649500 \
  --section valley:500000:4649500:500600:4649500 \
  --max-maps --raster-format geotiff --out flood --format png --every-time 1800 \
  --png-field depth --png-range 0 3 --json flood/run.json
# 3. the maximum depth, as GDAL sees it
gdalinfo -stats flood/max_depth.tif | grep -E "Size is|PROJCRS|Origin|Pixel Size|NoData|STATISTICS_(MAX|MEAN)"
echo "outputs in $work/flood"
