"""Branch predicates as they come out of the compiler (src/compiler/branch_predicates.cpp and
Scheduler::place_branch_predicate), on tests/compiler/shaders/branch_predicates.comp for Barts
and Cayman (the compiler-corpus test runs the same shader against lavapipe):

- every comparison kind is folded into its If's predicate: PRED_SETE/NE/GT/GE on integers
  (signed and unsigned) and floats comparing two operands, not a condition against 0;
- predicates read a literal and a constant-cache constant where the comparison did;
- a predicate is alone in the last group of an ALU_PUSH_BEFORE clause, and never in a clause of
  its own right after another ALU clause (it would have joined that clause).

  branch_predicates_test.py TERAKAN_COMPILE SHADER"""
import re
import subprocess
import sys

compile_tool, shader = sys.argv[1:3]
CF = re.compile(r'^(\d{4})  (\w+)(?: @(\d+))?', re.M)
CLAUSE = re.compile(r'^ALU clause @(\d+), (\d+) slots$', re.M)
INSTRUCTION = re.compile(r'^(\d{4})\s+([xyzwt]): (\w+)\s+(.*?)\s+;', re.M)
FOLDED = ['PRED_SETE_INT', 'PRED_SETNE_INT', 'PRED_SETGT_INT', 'PRED_SETGE_INT', 'PRED_SETGT_UINT',
          'PRED_SETGE_UINT', 'PRED_SETE', 'PRED_SETNE', 'PRED_SETGT', 'PRED_SETGE']

for chip in ['barts', 'cayman']:
    result = subprocess.run([compile_tool, '--chip', chip, shader], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, (chip, result.stderr)
    listing = result.stdout
    # Instructions by dword address, with the group each belongs to (a group ends at a new slot
    # order: x..t; the disassembler prints one line per instruction).
    instructions = {int(m.group(1)): (m.group(2), m.group(3), m.group(4)) for m in INSTRUCTION.finditer(listing)}
    predicates = [(address, op, operands) for address, (slot, op, operands) in instructions.items()
                  if op.startswith('PRED_SET')]
    assert predicates, (chip, 'no predicates', listing)

    for name in FOLDED:
        folded = [operands for _, op, operands in predicates
                  if op == name and not re.search(r', 0 UPDATE_EXEC_MASK', operands)]
        assert folded, (chip, name, 'not folded: no predicate compares two operands')
    assert any('literal' in operands for _, _, operands in predicates), (chip, 'no predicate reads a literal')
    assert any('KC0[' in operands or 'KC1[' in operands for _, _, operands in predicates), \
        (chip, 'no predicate reads the constant cache')

    # Clause layout: every predicate is the last instruction of an ALU_PUSH_BEFORE clause, in a
    # group of its own (the instruction before it carries LAST, so it starts a new group).
    cf = [(int(m.group(1)), m.group(2), int(m.group(3)) if m.group(3) else None) for m in CF.finditer(listing)]
    push_clauses = {address for _, inst, address in cf if inst == 'ALU_PUSH_BEFORE'}
    clause_slots = {int(m.group(1)): int(m.group(2)) for m in CLAUSE.finditer(listing)}
    ends = set()
    for start in push_clauses:
        last = max(a for a in instructions if start <= a < start + clause_slots[start])
        assert instructions[last][1].startswith('PRED_SET'), (chip, 'clause', start, 'ends with', instructions[last])
        earlier = [a for a in instructions if start <= a < last]
        if earlier:
            # The group before holds no predicate; the predicate's group holds nothing else
            # (its slot x comes right after the previous group's instructions).
            assert instructions[last][0] == 'x', (chip, 'predicate shares its group', instructions[last])
        ends.add(last)
    assert ends == {address for address, _, _ in predicates}, (chip, 'a predicate outside a clause end')
    for (_, first, _), (_, second, address) in zip(cf, cf[1:]):
        if first == 'ALU' and second == 'ALU_PUSH_BEFORE':
            # (The ALU clause before is far from full here, and its constants leave room.)
            alone = [a for a in instructions if address <= a < address + clause_slots[address]] == [address]
            assert not alone, (chip, 'a predicate in a clause of its own after an ALU clause', address)
print('branch predicates: every comparison folded, predicates end ALU_PUSH_BEFORE clauses')
