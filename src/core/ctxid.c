#include "core/ctxid.h"
#include <string.h>

static uint32_t free_pairs[DMPI_CTX_WORDS];     /* bit set: pair is free here */
static uint32_t reserved[DMPI_CTX_WORDS];       /* offered by an agreement still in flight */

void dmpi_ctx_init(void)
{
    memset(free_pairs, 0xff, sizeof free_pairs);
    memset(reserved, 0, sizeof reserved);
    dmpi_ctx_take(0);
    dmpi_ctx_take(1);
}

void dmpi_ctx_free_mask(uint32_t mask[DMPI_CTX_WORDS])
{
    for (int w = 0; w < DMPI_CTX_WORDS; w++)
        mask[w] = free_pairs[w] & ~reserved[w];
}

void dmpi_ctx_reserve(const uint32_t mask[DMPI_CTX_WORDS])
{
    for (int w = 0; w < DMPI_CTX_WORDS; w++)
        reserved[w] |= mask[w];
}

void dmpi_ctx_unreserve(const uint32_t mask[DMPI_CTX_WORDS])
{
    for (int w = 0; w < DMPI_CTX_WORDS; w++)
        reserved[w] &= ~mask[w];
}

int dmpi_ctx_lowest(const uint32_t mask[DMPI_CTX_WORDS])
{
    for (int w = 0; w < DMPI_CTX_WORDS; w++)
        if (mask[w])
            return w * 32 + __builtin_ctz(mask[w]);
    return -1;
}

void dmpi_ctx_take(int pair) { free_pairs[pair / 32] &= ~(1u << (pair % 32)); }
static void (*on_release)(int pair);

void dmpi_ctx_set_release_hook(void (*fn)(int pair)) { on_release = fn; }

void dmpi_ctx_release(int pair)
{
    if (on_release)
        on_release(pair);
    free_pairs[pair / 32] |= 1u << (pair % 32);
}
