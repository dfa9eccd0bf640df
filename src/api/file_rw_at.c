/* Data access at explicit offsets (MPI-4.1 section 14.4.2): blocking,
 * collective and nonblocking, each in the int and the _c (MPI_Count) form.
 * The offset counts etypes of the view; io/ checks it and the access mode. */
#include "api/file_api.h"

DMPI_ALIAS(File_read_at)
DMPI_ALIAS(File_read_at_c)
DMPI_ALIAS(File_read_at_all)
DMPI_ALIAS(File_read_at_all_c)
DMPI_ALIAS(File_write_at)
DMPI_ALIAS(File_write_at_c)
DMPI_ALIAS(File_write_at_all)
DMPI_ALIAS(File_write_at_all_c)
DMPI_ALIAS(File_iread_at)
DMPI_ALIAS(File_iread_at_c)
DMPI_ALIAS(File_iread_at_all)
DMPI_ALIAS(File_iread_at_all_c)
DMPI_ALIAS(File_iwrite_at)
DMPI_ALIAS(File_iwrite_at_c)
DMPI_ALIAS(File_iwrite_at_all)
DMPI_ALIAS(File_iwrite_at_all_c)

int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                      MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read_at", fh, DMPI_IO_AT, offset, buf, count, datatype, status);
}

int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read_at_c", fh, DMPI_IO_AT, offset, buf, count, datatype, status);
}

int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                          MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read_at_all", fh, DMPI_IO_AT | DMPI_IO_COLL, offset, buf, count, datatype,
                                status);
}

int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read_at_all_c", fh, DMPI_IO_AT | DMPI_IO_COLL, offset, buf, count, datatype,
                                status);
}

int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
                       MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write_at", fh, DMPI_IO_AT | DMPI_IO_WRITE, offset, buf, count, datatype,
                                status);
}

int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write_at_c", fh, DMPI_IO_AT | DMPI_IO_WRITE, offset, buf, count, datatype,
                                status);
}

int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write_at_all", fh, DMPI_IO_AT | DMPI_IO_WRITE | DMPI_IO_COLL, offset, buf,
                                count, datatype, status);
}

int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write_at_all_c", fh, DMPI_IO_AT | DMPI_IO_WRITE | DMPI_IO_COLL, offset, buf,
                                count, datatype, status);
}

int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                       MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iread_at", fh, DMPI_IO_AT, offset, buf, count, datatype, request);
}

int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iread_at_c", fh, DMPI_IO_AT, offset, buf, count, datatype, request);
}

int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                           MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iread_at_all", fh, DMPI_IO_AT | DMPI_IO_COLL, offset, buf, count, datatype,
                                 request);
}

int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iread_at_all_c", fh, DMPI_IO_AT | DMPI_IO_COLL, offset, buf, count,
                                 datatype, request);
}

int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
                        MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iwrite_at", fh, DMPI_IO_AT | DMPI_IO_WRITE, offset, buf, count, datatype,
                                 request);
}

int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iwrite_at_c", fh, DMPI_IO_AT | DMPI_IO_WRITE, offset, buf, count, datatype,
                                 request);
}

int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iwrite_at_all", fh, DMPI_IO_AT | DMPI_IO_WRITE | DMPI_IO_COLL, offset, buf,
                                 count, datatype, request);
}

int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iwrite_at_all_c", fh, DMPI_IO_AT | DMPI_IO_WRITE | DMPI_IO_COLL, offset,
                                 buf, count, datatype, request);
}
