"""Load identification (负荷识别): which appliance switched on, and whether the policy forbids it."""
