/* What one ALU instruction computes for one lane: the arithmetic of every opcode the shader
 * core executes, as plain functions of 32-bit operand values. Multi-slot behaviour (DOT4,
 * Cayman replication), predicates, AR and LDS are handled by the wave executor. */
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "compiler/isa/opcodes.h"

namespace terakan::sim {

/* Result of an opcode for one lane, or nullopt if the opcode is not simulated yet (the executor
 * then stops the dispatch with that message rather than guessing). */
std::optional<uint32_t> evaluate_alu(const isa::AluOpInfo &op, isa::IsaClass isa, uint32_t a,
                                     uint32_t b, uint32_t c);

/* The same, resolved once per instruction rather than per lane: nullptr if not simulated. */
using AluFunction = uint32_t (*)(uint32_t a, uint32_t b, uint32_t c);
AluFunction find_alu_function(const isa::AluOpInfo &op);

/* The same over a wave: out[lane] = op(a[lane], b[lane], c[lane]) for every lane below `lanes`,
 * whether or not the lane executes (every operation is a pure function of its operands, so the
 * executor simply keeps the results of the lanes that do). nullptr if not simulated. */
using AluLanesFunction = void (*)(const uint32_t *__restrict a, const uint32_t *__restrict b,
                                  const uint32_t *__restrict c, uint32_t *__restrict out, unsigned lanes);
AluLanesFunction find_alu_lanes_function(const isa::AluOpInfo &op);

/* PRED_SET* and KILL* compare: true when the condition holds. nullopt if not a comparison. */
std::optional<bool> evaluate_condition(const isa::AluOpInfo &op, uint32_t a, uint32_t b);
/* The comparison of a PRED_SET* or KILL* operation (nullptr if it has none), to look up once
 * per instruction rather than per lane. */
using ConditionFunction = bool (*)(uint32_t a, uint32_t b);
ConditionFunction find_condition_function(const isa::AluOpInfo &op);

/* CUBE: the four results of one CUBE group for the direction (x, y, z), in slot order
 * x = tc (T), y = sc (S), z = 2 * major axis (signed), w = face id as a float (0 +X, 1 -X,
 * 2 +Y, 3 -Y, 4 +Z, 5 -Z). Ties go to z, then y (docs/sim-semantics.md, "ALU"). The group
 * carries the direction in its operands (src0 = dir.zzxy, src1 = dir.yxzz); the wave executor
 * extracts it and checks the copies agree. */
std::array<uint32_t, 4> evaluate_cube(uint32_t x, uint32_t y, uint32_t z);

/* Output modifiers (OMOD *2, *4, /2; CLAMP to [0, 1]) on float results. */
uint32_t apply_output_modifiers(uint32_t value, unsigned omod, bool clamp);

float as_float(uint32_t bits);
uint32_t as_bits(float value);

} // namespace terakan::sim
