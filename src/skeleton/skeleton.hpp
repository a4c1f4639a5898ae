// The skeleton library (issue 8): include this one header.
#pragma once
#include "skeleton/checkpoint.hpp"
#include "skeleton/containers.hpp"
#include "skeleton/field.hpp"
#include "skeleton/skeletons.hpp"
#include "skeleton/team.hpp"
