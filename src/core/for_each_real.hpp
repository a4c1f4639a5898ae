// The real value types the front ends are built for, as an instantiation
// list: a .cpp file defines its TS_INSTANTIATE(T) and writes
// TS_FOR_EACH_REAL(TS_INSTANTIATE), so a new precision is added in one place.
#pragma once

#define TS_FOR_EACH_REAL(F) F(float) F(double)
