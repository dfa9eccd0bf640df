/* Data access through the shared file pointer (MPI-4.1 section 14.4.4):
 * independent, nonblocking and in rank order (the _ordered forms, which are
 * collective), each in the int and the _c (MPI_Count) form. */
#include "api/file_api.h"

DMPI_ALIAS(File_read_shared)
DMPI_ALIAS(File_read_shared_c)
DMPI_ALIAS(File_write_shared)
DMPI_ALIAS(File_write_shared_c)
DMPI_ALIAS(File_iread_shared)
DMPI_ALIAS(File_iread_shared_c)
DMPI_ALIAS(File_iwrite_shared)
DMPI_ALIAS(File_iwrite_shared_c)
DMPI_ALIAS(File_read_ordered)
DMPI_ALIAS(File_read_ordered_c)
DMPI_ALIAS(File_write_ordered)
DMPI_ALIAS(File_write_ordered_c)

int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read_shared", fh, DMPI_IO_SHARED, 0, buf, count, datatype, status);
}

int PMPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read_shared_c", fh, DMPI_IO_SHARED, 0, buf, count, datatype, status);
}

int PMPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write_shared", fh, DMPI_IO_SHARED | DMPI_IO_WRITE, 0, buf, count, datatype,
                                status);
}

int PMPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write_shared_c", fh, DMPI_IO_SHARED | DMPI_IO_WRITE, 0, buf, count,
                                datatype, status);
}

int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iread_shared", fh, DMPI_IO_SHARED, 0, buf, count, datatype, request);
}

int PMPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iread_shared_c", fh, DMPI_IO_SHARED, 0, buf, count, datatype, request);
}

int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iwrite_shared", fh, DMPI_IO_SHARED | DMPI_IO_WRITE, 0, buf, count,
                                 datatype, request);
}

int PMPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                              MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iwrite_shared_c", fh, DMPI_IO_SHARED | DMPI_IO_WRITE, 0, buf, count,
                                 datatype, request);
}

int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read_ordered", fh, DMPI_IO_ORDERED, 0, buf, count, datatype, status);
}

int PMPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read_ordered_c", fh, DMPI_IO_ORDERED, 0, buf, count, datatype, status);
}

int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write_ordered", fh, DMPI_IO_ORDERED | DMPI_IO_WRITE, 0, buf, count,
                                datatype, status);
}

int PMPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                              MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write_ordered_c", fh, DMPI_IO_ORDERED | DMPI_IO_WRITE, 0, buf, count,
                                datatype, status);
}
