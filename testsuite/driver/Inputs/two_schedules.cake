# Two schedules in one file (for --kernel-name, which names one kernel).
@cake.schedule()
def first(lm):
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()

@cake.schedule()
def second(lm):
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
