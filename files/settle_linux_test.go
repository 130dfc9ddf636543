package files

import "time"

// settleWait is how long settle waits.
const settleWait = fineMargin + 5*time.Millisecond

// dropIdleRings closes the rings kept from earlier calls, so that a test
// that sets SHA256X_IOURING=off reads without one.
func dropIdleRings() {
	rings.Lock()
	defer rings.Unlock()
	for _, rr := range rings.idle {
		rr.close()
	}
	clear(rings.idle)
	rings.idle = rings.idle[:0]
}
