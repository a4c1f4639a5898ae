// The skeleton library (issue 8): include this one header.
#pragma once
#include "skeleton/containers.hpp"
#include "skeleton/field.hpp"
#include "skeleton/skeletons.hpp"
#include "skeleton/team.hpp"
