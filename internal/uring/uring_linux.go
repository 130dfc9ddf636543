package uring

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The kernel's ABI (include/uapi/linux/io_uring.h).
const (
	opNop       = 0
	opReadFixed = 4
	opOpenAt    = 18
	opClose     = 19
	opStatx     = 21
	opRead      = 22

	sqeFixedFile = 1 << 0
	sqeIOLink    = 1 << 2
	sqeHardLink  = 1 << 3
	sqeAsync     = 1 << 4

	setupSubmitAll   = 1 << 7
	setupCoopTaskrun = 1 << 8

	featNoDrop     = 1 << 1
	featRWCurPos   = 1 << 3
	featLinkedFile = 1 << 12

	enterGetEvents = 1 << 0

	registerBuffers = 0
	registerFiles   = 2
	registerProbe   = 8

	offSQRing = 0
	offCQRing = 0x8000000
	offSQEs   = 0x10000000

	probeOpSupported = 1
)

type sqringOffsets struct {
	head, tail, ringMask, ringEntries, flags, dropped, array, resv1 uint32
	userAddr                                                        uint64
}

type cqringOffsets struct {
	head, tail, ringMask, ringEntries, overflow, cqes, flags, resv1 uint32
	userAddr                                                        uint64
}

type params struct {
	sqEntries, cqEntries, flags, sqThreadCPU, sqThreadIdle, features, wqFD uint32
	resv                                                                   [3]uint32
	sqOff                                                                  sqringOffsets
	cqOff                                                                  cqringOffsets
}

type sqe struct {
	opcode      uint8
	flags       uint8
	ioprio      uint16
	fd          int32
	off         uint64
	addr        uint64
	len         uint32
	opFlags     uint32
	userData    uint64
	bufIndex    uint16
	personality uint16
	fileIndex   uint32
	addr3       uint64
	pad         uint64
}

type cqe struct {
	userData uint64
	res      int32
	flags    uint32
}

type probeOp struct {
	op    uint8
	resv  uint8
	flags uint16
	resv2 uint32
}

type probe struct {
	lastOp, opsLen uint8
	resv           uint16
	resv2          [3]uint32
	ops            [64]probeOp
}

// A Ring is one io_uring instance: a submission queue, a completion queue,
// a table of direct descriptors and, if they could be registered, fixed
// buffers. A Ring is used by one goroutine at a time.
type Ring struct {
	fd       int
	sqMem    []byte
	cqMem    []byte
	sqeMem   []byte
	sqHead   *uint32
	sqTail   *uint32
	sqMask   uint32
	sqArray  []uint32
	sqes     []sqe
	cqHead   *uint32
	cqTail   *uint32
	cqMask   uint32
	cqes     []cqe
	tail     uint32 // next submission slot, published by Submit
	queued   int    // queued since the last Submit
	inflight int    // submitted, not yet reaped
	waited   int    // SubmitInline calls left to make as Submit
	files    int
	bufs     [][]byte // registered, or nil
}

// New sets up a ring of at least entries submissions, a table of files
// direct descriptors, and registers bufs as fixed buffers. If the buffers
// cannot be registered (locked-memory limits), the ring works without
// them: ReadDirect then reads into the caller's memory.
//
// It fails where the kernel refuses io_uring (ENOSYS, or EPERM from a
// seccomp profile or the io_uring_disabled sysctl), where it lacks an
// operation or feature the package needs (linked requests that use a
// direct descriptor opened earlier in the chain: Linux 5.18 and later), or
// when SHA256X_IOURING=off.
func New(entries, files int, bufs [][]byte) (*Ring, error) {
	if Disabled() {
		return nil, ErrDisabled
	}
	// Flags the kernel lacks are refused (EINVAL): COOP_TASKRUN (5.19) is
	// dropped first, then SUBMIT_ALL (5.18).
	var p params
	var fd int
	var err error
	for _, f := range []uint32{setupSubmitAll | setupCoopTaskrun, setupSubmitAll, 0} {
		p = params{flags: f}
		if fd, err = setup(uint32(entries), &p); err != unix.EINVAL {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("uring: io_uring_setup: %w", err)
	}
	r := &Ring{fd: fd, files: files}
	if err := r.init(&p); err != nil {
		r.Close()
		return nil, err
	}
	if len(bufs) > 0 {
		iov := make([]unix.Iovec, len(bufs))
		for i, b := range bufs {
			iov[i].Base = unsafe.SliceData(b)
			iov[i].SetLen(len(b))
		}
		if r.register(registerBuffers, unsafe.Pointer(&iov[0]), len(iov)) == nil {
			r.bufs = bufs
		}
		runtime.KeepAlive(iov)
	}
	return r, nil
}

// setup is io_uring_setup; tests make it refuse flags.
var setup = func(entries uint32, p *params) (int, error) {
	fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, uintptr(entries), uintptr(unsafe.Pointer(p)), 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

func (r *Ring) register(op int, arg unsafe.Pointer, n int) error {
	for {
		_, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), uintptr(op), uintptr(arg), uintptr(n), 0, 0)
		switch errno {
		case 0:
			return nil
		case unix.EINTR:
			continue
		}
		return errno
	}
}

func (r *Ring) init(p *params) error {
	if p.features&featLinkedFile == 0 || p.features&featNoDrop == 0 || p.features&featRWCurPos == 0 {
		return fmt.Errorf("uring: kernel lacks linked direct descriptors (features %#x)", p.features)
	}
	var pr probe
	if err := r.register(registerProbe, unsafe.Pointer(&pr), len(pr.ops)); err != nil {
		return fmt.Errorf("uring: probe: %w", err)
	}
	for _, op := range []uint8{opReadFixed, opOpenAt, opClose, opStatx, opRead} {
		if int(op) > int(pr.lastOp) || pr.ops[op].flags&probeOpSupported == 0 {
			return fmt.Errorf("uring: kernel lacks operation %d", op)
		}
	}
	var err error
	sqSize := int(p.sqOff.array) + int(p.sqEntries)*4
	if r.sqMem, err = unix.Mmap(r.fd, offSQRing, sqSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE); err != nil {
		return fmt.Errorf("uring: mmap: %w", err)
	}
	cqSize := int(p.cqOff.cqes) + int(p.cqEntries)*int(unsafe.Sizeof(cqe{}))
	if r.cqMem, err = unix.Mmap(r.fd, offCQRing, cqSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE); err != nil {
		return fmt.Errorf("uring: mmap: %w", err)
	}
	if r.sqeMem, err = unix.Mmap(r.fd, offSQEs, int(p.sqEntries)*int(unsafe.Sizeof(sqe{})), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE); err != nil {
		return fmt.Errorf("uring: mmap: %w", err)
	}
	u32 := func(mem []byte, off uint32) *uint32 { return (*uint32)(unsafe.Pointer(&mem[off])) }
	r.sqHead, r.sqTail = u32(r.sqMem, p.sqOff.head), u32(r.sqMem, p.sqOff.tail)
	r.sqMask = *u32(r.sqMem, p.sqOff.ringMask)
	r.sqArray = unsafe.Slice(u32(r.sqMem, p.sqOff.array), p.sqEntries)
	r.sqes = unsafe.Slice((*sqe)(unsafe.Pointer(&r.sqeMem[0])), p.sqEntries)
	r.cqHead, r.cqTail = u32(r.cqMem, p.cqOff.head), u32(r.cqMem, p.cqOff.tail)
	r.cqMask = *u32(r.cqMem, p.cqOff.ringMask)
	r.cqes = unsafe.Slice((*cqe)(unsafe.Pointer(&r.cqMem[p.cqOff.cqes])), p.cqEntries)
	r.tail = atomic.LoadUint32(r.sqTail)
	if r.files > 0 {
		fds := make([]int32, r.files)
		for i := range fds {
			fds[i] = -1 // a sparse table: every slot empty
		}
		if err := r.register(registerFiles, unsafe.Pointer(&fds[0]), len(fds)); err != nil {
			return fmt.Errorf("uring: register files: %w", err)
		}
	}
	return nil
}

// Close releases the ring, its descriptors and its buffers. Operations
// still in flight (Inflight) are cancelled, but a read the kernel's io-wq
// is running may still complete after Close returns and write into its
// buffer: the caller keeps such buffers from reuse.
func (r *Ring) Close() error {
	if r == nil {
		return nil
	}
	for _, m := range [][]byte{r.sqeMem, r.cqMem, r.sqMem} {
		if m != nil {
			unix.Munmap(m)
		}
	}
	r.sqeMem, r.cqMem, r.sqMem = nil, nil, nil
	if r.fd >= 0 {
		unix.Close(r.fd)
		r.fd = -1
	}
	return nil
}

// Registered reports whether the ring's buffers are registered, so that
// ReadDirect may name them.
func (r *Ring) Registered() bool { return r.bufs != nil }

// Space is how many more operations may be queued before Submit.
func (r *Ring) Space() int {
	return min(len(r.sqes)-r.queued, len(r.cqes)-r.inflight-r.queued)
}

func (r *Ring) next(op uint8, link bool, user uint64) *sqe {
	if r.Space() <= 0 {
		panic("sha256x: uring: submission queue full")
	}
	i := r.tail & r.sqMask
	r.sqArray[i] = i
	s := &r.sqes[i]
	*s = sqe{opcode: op, userData: user}
	if link {
		s.flags = sqeIOLink
	}
	r.tail++
	r.queued++
	return s
}

// escape moves what p points into to the heap, where nothing moves it: an
// operation holds its memory's address as an integer, which keeps no stack
// variable from moving as its stack grows.
func escape(p unsafe.Pointer) {
	if escapeSink.never {
		escapeSink.p = p
	}
}

var escapeSink struct {
	never bool
	p     unsafe.Pointer
}

// StatxMask is what Statx asks for: type, size, inode and times.
const StatxMask = unix.STATX_TYPE | unix.STATX_SIZE | unix.STATX_INO | unix.STATX_MTIME | unix.STATX_CTIME

// Statx queues statx(dir, path, 0, StatxMask, st), dir a directory's
// descriptor or unix.AT_FDCWD. path must end in a NUL byte and stay
// unchanged until Submit returns, dir open until the operation completes,
// and st alive until then. The kernel runs it on its io-wq threads, and
// refuses it a direct descriptor.
func (r *Ring) Statx(dir int, path []byte, st *unix.Statx_t, user uint64, link bool) {
	escape(unsafe.Pointer(unsafe.SliceData(path)))
	escape(unsafe.Pointer(st))
	s := r.next(opStatx, link, user)
	s.fd = int32(dir)
	s.addr = uint64(uintptr(unsafe.Pointer(unsafe.SliceData(path))))
	s.len = StatxMask
	s.off = uint64(uintptr(unsafe.Pointer(st)))
}

// OpenDirect queues openat(dir, path, O_RDONLY) into the direct descriptor
// slot, dir a directory's descriptor or unix.AT_FDCWD. path must end in a
// NUL byte and stay unchanged until Submit returns, and dir open until the
// operation completes.
func (r *Ring) OpenDirect(dir int, path []byte, slot int, user uint64, link bool) {
	escape(unsafe.Pointer(unsafe.SliceData(path)))
	s := r.next(opOpenAt, link, user)
	s.fd = int32(dir)
	s.addr = uint64(uintptr(unsafe.Pointer(unsafe.SliceData(path))))
	s.opFlags = unix.O_RDONLY // O_CLOEXEC is refused for direct descriptors, which no exec inherits
	s.fileIndex = uint32(slot) + 1
}

// ReadDirect queues a read of len(buf) bytes at offset off (-1: the file's
// position, which the read advances) of the file in slot into buf, which
// must lie inside registered buffer reg (or, with reg < 0 or no registered
// buffers, anywhere) and stay alive until the operation completes. With
// link, the next operation runs even if the read fails or comes up short (a
// hard link: the kernel counts a short read as a failure), so that a close
// after it always runs.
func (r *Ring) ReadDirect(slot int, buf []byte, off int64, reg int, user uint64, link bool) {
	escape(unsafe.Pointer(unsafe.SliceData(buf)))
	op := uint8(opRead)
	if reg >= 0 && r.bufs != nil {
		op = opReadFixed
	}
	s := r.next(op, false, user)
	s.flags = sqeFixedFile
	if link {
		s.flags |= sqeHardLink
	}
	s.fd = int32(slot)
	s.addr = uint64(uintptr(unsafe.Pointer(unsafe.SliceData(buf))))
	s.len = uint32(len(buf))
	s.off = uint64(off)
	if op == opReadFixed {
		s.bufIndex = uint16(reg)
	}
}

// CloseDirect queues the close of the direct descriptor in slot.
func (r *Ring) CloseDirect(slot int, user uint64) {
	s := r.next(opClose, false, user)
	s.fileIndex = uint32(slot) + 1
}

// Async sends the operation queued last to the kernel's io-wq threads
// rather than trying it inline first, as the kernel does with one that
// would block: for tests of what a caller does when an operation finishes
// after those queued behind it.
func (r *Ring) Async() {
	r.sqes[(r.tail-1)&r.sqMask].flags |= sqeAsync
}

// Nop queues an operation that does nothing, for tests.
func (r *Ring) Nop(user uint64, link bool) { r.next(opNop, link, user) }

// Submit hands the queued operations to the kernel and waits until at
// least wait operations (of all submitted so far) have completed, in one
// system call where it can.
func (r *Ring) Submit(wait int) error { return r.submit(wait, false) }

// SubmitInline is Submit for operations that usually complete while they
// are submitted (opens and reads of cached files). It submits with a raw
// system call, which keeps this thread's P (io_uring never blocks while it
// submits, and rawSubmitMax bounds the inline work), then waits, if it
// must, with an ordinary one. A call that leaves operations pending makes
// the next rawRetry calls behave as Submit (bench/HISTORY.md, "io_uring's
// submission without a hand-off").
func (r *Ring) SubmitInline(wait int) error {
	if r.waited > 0 {
		r.waited--
		return r.submit(wait, false)
	}
	return r.submit(wait, true)
}

func (r *Ring) submit(wait int, raw bool) error {
	atomic.StoreUint32(r.sqTail, r.tail)
	refused := 0
	for {
		ready := int(atomic.LoadUint32(r.cqTail) - atomic.LoadUint32(r.cqHead))
		want := min(wait, r.inflight+r.queued)
		if r.queued == 0 && ready >= want {
			return nil
		}
		var n uintptr
		var errno unix.Errno
		if refuseEnter != nil && refuseEnter() {
			errno = unix.EAGAIN
		} else if raw && r.queued > 0 {
			k := r.chainsUpTo(rawSubmitMax)
			n, _, errno = unix.RawSyscall6(unix.SYS_IO_URING_ENTER, uintptr(r.fd), uintptr(k), 0, 0, 0, 0)
			if errno == 0 && int(n) == r.queued && int(atomic.LoadUint32(r.cqTail)-atomic.LoadUint32(r.cqHead)) < want {
				r.waited = rawRetry
			}
		} else {
			flags, need := 0, 0
			if ready < want {
				flags, need = enterGetEvents, want-ready
			}
			n, _, errno = unix.Syscall6(unix.SYS_IO_URING_ENTER, uintptr(r.fd), uintptr(r.queued), uintptr(need), uintptr(flags), 0, 0)
		}
		switch errno {
		case 0:
			r.queued -= int(n)
			r.inflight += int(n)
			refused = 0
		case unix.EINTR:
		case unix.EAGAIN, unix.EBUSY:
			if refused++; refused == enterRefusedMax {
				return fmt.Errorf("uring: io_uring_enter: %w, %d times in a row", errno, refused)
			}
			runtime.Gosched()
		default:
			return fmt.Errorf("uring: io_uring_enter: %w", errno)
		}
	}
}

// enterRefusedMax bounds the io_uring_enter calls in a row that the kernel
// refuses (EAGAIN, EBUSY), each after yielding the thread; at the bound
// submit returns the error, and its caller gives the ring up and reads the
// plain way.
const enterRefusedMax = 1000

// refuseEnter, if set (by tests), is asked before each io_uring_enter; where
// it returns true the call is not made and counts as refused with EAGAIN.
var refuseEnter func() bool

// rawSubmitMax bounds the operations one raw io_uring_enter submits, cut at
// the end of a chain: a raw call holds this thread's P, and a stop of the
// world waits for it. 256 operations are the chains of 64 small files,
// about 0.13 ms of the kernel's work (BenchmarkSmallFiles).
const rawSubmitMax = 256

// chainsUpTo returns how many of the queued operations, at most max, end
// at the end of a chain (an operation not linked to the next), so that a
// submission never splits a chain: a chain cut short would run its head
// without its tail. If the first chain alone is longer than max, it is
// returned whole.
func (r *Ring) chainsUpTo(max int) int {
	if r.queued <= max {
		return r.queued
	}
	head := r.tail - uint32(r.queued)
	for k := max; k > 0; k-- {
		if r.sqes[r.sqArray[(head+uint32(k)-1)&r.sqMask]].flags&(sqeIOLink|sqeHardLink) == 0 {
			return k
		}
	}
	for k := max + 1; k < r.queued; k++ {
		if r.sqes[r.sqArray[(head+uint32(k)-1)&r.sqMask]].flags&(sqeIOLink|sqeHardLink) == 0 {
			return k
		}
	}
	return r.queued
}

// rawRetry is how many SubmitInline calls after one that left operations
// pending go the ordinary way before a raw submission is tried again.
const rawRetry = 16

// Reap calls fn for every completed operation, in completion order, and
// returns how many there were.
func (r *Ring) Reap(fn func(user uint64, res int32)) int {
	head := atomic.LoadUint32(r.cqHead)
	tail := atomic.LoadUint32(r.cqTail)
	n := 0
	for ; head != tail; head++ {
		c := &r.cqes[head&r.cqMask]
		fn(c.userData, c.res)
		n++
	}
	atomic.StoreUint32(r.cqHead, head)
	r.inflight -= n
	return n
}

// Inflight is the number of operations submitted and not yet reaped.
func (r *Ring) Inflight() int { return r.inflight }

// Errno turns a negative completion result into its error.
func Errno(res int32) error {
	if res >= 0 {
		return nil
	}
	return unix.Errno(-res)
}
