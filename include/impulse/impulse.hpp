// SPDX-License-Identifier: MIT
/// \file impulse.hpp
/// Umbrella header: everything impulse offers.
#pragma once

#include "axis.hpp"
#include "batch.hpp"
#include "collide.hpp"
#include "collide2d.hpp"
#include "collide3d.hpp"
#include "config.hpp"
#include "contact.hpp"
#include "kinematics.hpp"
#include "manifold.hpp"
#include "material.hpp"
#include "recycle.hpp"
#include "rigid.hpp"
#include "solver.hpp"
#include "tasks.hpp"
