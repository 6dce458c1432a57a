/* ProcessPrng for Wine 8, which has no bcryptprimitives.dll: Go (1.22 and
   later) loads it at start and stops without it. Copied into the Wine
   prefix's system32 by test/windows/run.sh; Windows 10 and later have the
   real one. ProcessPrng fills data with len random bytes and never fails. */
#include <windows.h>
#define SystemFunction036 NTAPI SystemFunction036
#include <ntsecapi.h>
#undef SystemFunction036

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, n)) return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
