/* Data access through the individual file pointer (MPI-4.1 section
 * 14.4.3): blocking, collective and nonblocking, each in the int and the _c
 * (MPI_Count) form. The pointer moves by what the access covers (io/). */
#include "api/file_api.h"

DMPI_ALIAS(File_read)
DMPI_ALIAS(File_read_c)
DMPI_ALIAS(File_read_all)
DMPI_ALIAS(File_read_all_c)
DMPI_ALIAS(File_write)
DMPI_ALIAS(File_write_c)
DMPI_ALIAS(File_write_all)
DMPI_ALIAS(File_write_all_c)
DMPI_ALIAS(File_iread)
DMPI_ALIAS(File_iread_c)
DMPI_ALIAS(File_iread_all)
DMPI_ALIAS(File_iread_all_c)
DMPI_ALIAS(File_iwrite)
DMPI_ALIAS(File_iwrite_c)
DMPI_ALIAS(File_iwrite_all)
DMPI_ALIAS(File_iwrite_all_c)

int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read", fh, DMPI_IO_INDIVIDUAL, 0, buf, count, datatype, status);
}

int PMPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read_c", fh, DMPI_IO_INDIVIDUAL, 0, buf, count, datatype, status);
}

int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read_all", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_COLL, 0, buf, count, datatype,
                                status);
}

int PMPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_read_all_c", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_COLL, 0, buf, count, datatype,
                                status);
}

int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_WRITE, 0, buf, count, datatype,
                                status);
}

int PMPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write_c", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_WRITE, 0, buf, count, datatype,
                                status);
}

int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write_all", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_WRITE | DMPI_IO_COLL, 0, buf,
                                count, datatype, status);
}

int PMPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Status *status)
{
    DMPI_API_ENTER;
    return dmpi_api_file_access("MPI_File_write_all_c", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_WRITE | DMPI_IO_COLL, 0, buf,
                                count, datatype, status);
}

int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iread", fh, DMPI_IO_INDIVIDUAL, 0, buf, count, datatype, request);
}

int PMPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iread_c", fh, DMPI_IO_INDIVIDUAL, 0, buf, count, datatype, request);
}

int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iread_all", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_COLL, 0, buf, count, datatype,
                                 request);
}

int PMPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iread_all_c", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_COLL, 0, buf, count,
                                 datatype, request);
}

int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iwrite", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_WRITE, 0, buf, count, datatype,
                                 request);
}

int PMPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iwrite_c", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_WRITE, 0, buf, count, datatype,
                                 request);
}

int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                         MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iwrite_all", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_WRITE | DMPI_IO_COLL, 0, buf,
                                 count, datatype, request);
}

int PMPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Request *request)
{
    DMPI_API_ENTER;
    return dmpi_api_file_iaccess("MPI_File_iwrite_all_c", fh, DMPI_IO_INDIVIDUAL | DMPI_IO_WRITE | DMPI_IO_COLL, 0,
                                 buf, count, datatype, request);
}
