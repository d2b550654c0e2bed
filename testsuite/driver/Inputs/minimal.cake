# A schedule legal on every target: one role that synchronises its warp.
@cake.schedule()
def minimal(lm):
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
