/* Preloaded into a program to make it non-dumpable: other processes of the
 * same (non-root) user may then not read its memory with process_vm_readv,
 * which is how cross-memory attach is denied on hardened systems. */
#include <sys/prctl.h>

__attribute__((constructor)) static void make_nondumpable(void)
{
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}
