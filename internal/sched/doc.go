// Package sched is the scheduler: the only code that turns a batch into
// kernel calls, following the plan it is given (internal/plan) and calling
// the kernels by ID through internal/kernel's table.
//
// A batch becomes a queue of jobs, one per message. A job is a message as a
// kernel sees it: a starting state (the IV, or the midstate after the whole
// blocks of a prefix, computed once per batch) and up to three runs of
// 64-byte blocks:
//
//	head  the block that straddles the prefix's partial last block and the
//	      message, staged (only with a prefix whose length is not a multiple
//	      of 64)
//	body  the message's whole blocks, read in place
//	tail  the message's last partial block with its padding, staged (one or
//	      two blocks)
//
// A kernel runs its queue on its lanes as internal/kernel says, each lane
// taking the next job as its own ends, so a ragged batch keeps every lane
// busy; it writes its busy lanes back when it returns, and the scheduler
// turns them into jobs again:
//
//   - between windows they open the next window's queue, so no lane waits at
//     a window boundary;
//   - at the end of the batch they go to the plan's next, narrower kernel
//     (wide lanes hand their last few messages to SHA-NI streams; a stage
//     may be only for an odd number of jobs), so the batch ends at the
//     speed of the best kernel for a few messages.
//
// Jobs are built a window at a time, on the caller's stack, so that the
// caller's slices do not escape. Staged blocks live in a pooled scratch
// area whose two halves alternate between windows; a carried job's staged
// blocks move with it.
//
// Order: when the block counts of a batch span more than a factor of 8, the
// batch is fed longest first, by power-of-two class, so that it ends with
// short jobs. Other batches are fed in arrival order.
//
// Bounded work: Go cannot preempt assembly, so each kernel call is bounded
// by time (internal/plan's bounds.go). A job-queue kernel returns after at
// most plan.MaxSteps steps, and the scheduler calls again on what it left
// (carry, untaken). A message of more than PartBlocks whole blocks is
// hashed a part at a time: the first pass takes every message's first part,
// then the longer messages go on in rounds, their states waiting in out
// between parts.
//
// Around the queue: one message, or a few short ones, go one after another
// on the plan's single-message path; 64-byte messages (Merkle pairs) go to
// the plan's pairs kernels with no queue at all; other Merkle joins, and
// batches of short messages that pad to as many blocks each (RFC 6962's
// leaves), are staged whole for the pairs kernels (staging).
package sched
