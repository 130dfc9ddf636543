// Package fdlimit sets a process's limit of open files so that it has a
// given number of descriptors to spare, for the tests of what a process
// short of them does. Only tests import it, in a child process: the limit
// is the process's, soft and hard, for good.
package fdlimit
