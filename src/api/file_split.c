/* Split collective data access (MPI-4.1 section 14.4.5): begin starts the
 * collective access (io/ runs it there), end returns its status. The _c
 * begin forms take MPI_Count counts; one end serves both begins. */
#include "api/file_api.h"

DMPI_ALIAS(File_read_at_all_begin)
DMPI_ALIAS(File_read_at_all_begin_c)
DMPI_ALIAS(File_read_at_all_end)
DMPI_ALIAS(File_write_at_all_begin)
DMPI_ALIAS(File_write_at_all_begin_c)
DMPI_ALIAS(File_write_at_all_end)
DMPI_ALIAS(File_read_all_begin)
DMPI_ALIAS(File_read_all_begin_c)
DMPI_ALIAS(File_read_all_end)
DMPI_ALIAS(File_write_all_begin)
DMPI_ALIAS(File_write_all_begin_c)
DMPI_ALIAS(File_write_all_end)
DMPI_ALIAS(File_read_ordered_begin)
DMPI_ALIAS(File_read_ordered_begin_c)
DMPI_ALIAS(File_read_ordered_end)
DMPI_ALIAS(File_write_ordered_begin)
DMPI_ALIAS(File_write_ordered_begin_c)
DMPI_ALIAS(File_write_ordered_end)

int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_read_at_all_begin", fh, DMPI_IO_AT | DMPI_IO_COLL, offset, buf, count,
                               datatype);
}

int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                                  MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_read_at_all_begin_c", fh, DMPI_IO_AT | DMPI_IO_COLL, offset, buf, count,
                               datatype);
}

int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_end("MPI_File_read_at_all_end", "MPI_File_read_at_all_begin", fh, buf, status);
}

int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                 MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_write_at_all_begin", fh, DMPI_IO_AT | DMPI_IO_WRITE | DMPI_IO_COLL, offset,
                               buf, count, datatype);
}

int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                                   MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_write_at_all_begin_c", fh, DMPI_IO_AT | DMPI_IO_WRITE | DMPI_IO_COLL, offset,
                               buf, count, datatype);
}

int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_end("MPI_File_write_at_all_end", "MPI_File_write_at_all_begin", fh, buf, status);
}

int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_read_all_begin", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_COLL, 0, buf, count,
                               datatype);
}

int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_read_all_begin_c", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_COLL, 0, buf, count,
                               datatype);
}

int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_end("MPI_File_read_all_end", "MPI_File_read_all_begin", fh, buf, status);
}

int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_write_all_begin", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_WRITE | DMPI_IO_COLL, 0,
                               buf, count, datatype);
}

int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_write_all_begin_c", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_WRITE | DMPI_IO_COLL, 0,
                               buf, count, datatype);
}

int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_end("MPI_File_write_all_end", "MPI_File_write_all_begin", fh, buf, status);
}

int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_read_ordered_begin", fh, DMPI_IO_ORDERED, 0, buf, count, datatype);
}

int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_read_ordered_begin_c", fh, DMPI_IO_ORDERED, 0, buf, count, datatype);
}

int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_end("MPI_File_read_ordered_end", "MPI_File_read_ordered_begin", fh, buf, status);
}

int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_write_ordered_begin", fh, DMPI_IO_ORDERED | DMPI_IO_WRITE, 0, buf, count,
                               datatype);
}

int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return dmpi_api_file_begin("MPI_File_write_ordered_begin_c", fh, DMPI_IO_ORDERED | DMPI_IO_WRITE, 0, buf, count,
                               datatype);
}

int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_end("MPI_File_write_ordered_end", "MPI_File_write_ordered_begin", fh, buf, status);
}
