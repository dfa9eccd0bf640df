/* dump_constants: prints "NAME VALUE" for every entry of constants.def as
 * the mpi.h it is compiled against defines it. compare_with_mpich.sh builds
 * it once against dmpi's header and once against MPICH's and diffs the two
 * outputs, so the expected values in constants.def play no part here.
 * Needs no library. Built as C11 (_Generic). */
#include <mpi.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The name of the C type of an expression, for the type-identity lines. */
#define DMPI_C_TYPE_NAME(x)                          \
    _Generic((x),                                    \
             signed char: "signed char",             \
             unsigned char: "unsigned char",         \
             short: "short",                         \
             unsigned short: "unsigned short",       \
             int: "int",                             \
             unsigned int: "unsigned int",           \
             long: "long",                           \
             unsigned long: "unsigned long",         \
             long long: "long long",                 \
             unsigned long long: "unsigned long long", \
             int *: "int *",                         \
             default: "other")

int main(void)
{
#define DMPI_ABI_INT(name, value) \
    printf("%s %lld %s\n", #name, (long long)(name), DMPI_C_TYPE_NAME(name));
#define DMPI_ABI_ENUM(name, etype, value) \
    printf("%s %lld\n", #name, (long long)(name));
#define DMPI_ABI_PTR(name, ctype, value) \
    printf("%s %lld\n", #name, (long long)(intptr_t)(name));
#define DMPI_ABI_OBJECT(name, ctype) \
    printf("object(%s) %s\n", #name, DMPI_C_TYPE_NAME(name));
#define DMPI_ABI_SIZE(type, bytes) \
    printf("sizeof(%s) %zu\n", #type, sizeof(type));
#define DMPI_ABI_FIELD(type, field, off) \
    printf("offsetof(%s,%s) %zu\n", #type, #field, offsetof(type, field));
#define DMPI_ABI_TYPE(type, ctype) \
    printf("type(%s) %s\n", #type, DMPI_C_TYPE_NAME((type)0));
#define DMPI_ABI_MPICH40 1       /* only what MPICH 4.0's header has too */
#include "constants.def"
    return 0;
}
