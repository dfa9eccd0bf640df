#ifndef DMPI_DATATYPE_BUILTIN_H
#define DMPI_DATATYPE_BUILTIN_H

#define DMPI_BUILTIN_MAX 0x4d

typedef struct dmpi_builtin_name {
    unsigned handle;
    const char *name;
} dmpi_builtin_name_t;

extern const dmpi_builtin_name_t dmpi_builtin_types[DMPI_BUILTIN_MAX];

#endif
