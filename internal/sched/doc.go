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
// A kernel has a fixed number of lanes (SIMD lanes, or interleaved SHA-NI /
// ARMv8 SHA2 streams). Each lane takes the next job from the queue and takes
// another as soon as its job ends, inside the kernel's loop, so lanes refill
// as messages end and a ragged batch keeps every lane busy. A kernel returns
// once the queue is empty and fewer than MinActive lanes are busy, and writes
// each busy lane back (its hash state and where it is in its job). The
// scheduler turns those lanes into jobs again:
//
//   - between windows they open the next window's queue, so no lane waits at
//     a window boundary;
//   - at the end of the batch they go to the plan's next, narrower kernel
//     (wide lanes hand their last few messages to SHA-NI streams, several
//     streams their last one to fewer; a stage may be only for an odd
//     number of jobs), so the batch ends at the speed of the best kernel for
//     a few messages rather than with idle lanes.
//
// Jobs are built a window at a time, on the caller's stack: their pointers
// into the caller's memory stay visible to the garbage collector and the stack
// copier, and the caller's slices do not escape. A window holds 256 jobs, or
// 64 in a batch of no more, which then zeroes a quarter of the array. Staged
// blocks live in a pooled scratch area whose two halves alternate between
// windows; a carried job's staged blocks move to the new half with it.
//
// Order: when the block counts of a batch span more than a factor of 8 (one
// 64 KiB message among short ones), the batch is fed longest first, by
// power-of-two class, in a few passes over the batch and without sorting, so
// the batch ends with short jobs and the final drain is short. Other batches
// are fed in arrival order.
//
// Bounded work: Go cannot preempt assembly, so no kernel call may run
// unbounded work; each is bounded by time, the work its kernel does in
// plan.CallTimeMicros at the slowest speed known for it (internal/plan's
// bounds.go). A job-queue kernel returns after at most plan.MaxSteps steps
// (kernel.LaneSet.MaxSteps), its busy lanes written back; the scheduler
// calls again on what it left, the busy lanes carried as jobs (carry) and,
// in finish, the jobs not taken after them (untaken). A window runs once
// its jobs hold WindowBlocks blocks a lane of the first kernel (a call's
// steps; a carried job counts at most that many) and a job for every lane,
// and again while what its call left does, so that a window's call takes
// every job within its steps and leaves only busy lanes. A message of more
// than the plan's PartBlocks whole blocks (1024) is hashed a part at a
// time: the batch's first pass
// takes every message's first part, then the longer messages go on in
// rounds, a part of up to a lane's worth of messages a round, their states
// waiting in out between parts. Single messages (Sum256, Stream.Write) loop
// over parts of OneBlocks on the stack (the single-job entries have no
// MaxSteps); the pairs and chain kernels take plan.PairsMax messages and
// plan.ChainSteps steps a call.
//
// Around the queue: one message, or a few short ones, go one after another
// on the plan's single-message path (the queue's fixed cost would not be
// earned back); 64-byte messages (Merkle pairs) go to the plan's pairs
// kernels, a lane group at a time with no queue at all, the padding block's
// W+K a table; other Merkle joins, and batches of short messages that pad to
// as many blocks each (at most three, after a prefix of less than a block:
// RFC 6962's leaves), are staged whole for the pairs kernels (staging, in
// slots laid out once with the prefix and padding).
//
// Files: batch.go (the queue, windows, staging, parts), many.go (HashMany),
// pairs.go (the pairs kernels' loop, staging), level.go (HashLevel), single.go (one
// message), stream.go (Stream and WriteMany), chain.go (Chain, Chains),
// stdlib.go (the stdlib plan: crypto/sha256, one message after another).
package sched
