! The five neighborhood collectives from Fortran, blocking and nonblocking, on distributed graphs
! built unweighted and weighted with MPI_Dist_graph_create_adjacent and with MPI_Dist_graph_create;
! with an MPI that has them (-DNBRCOMB_PERSISTENT_COLLECTIVES) also a persistent alltoallv, started twice. Then an alltoall
! on a Cartesian ring made by MPI_Cart_create and MPI_Cart_sub.
! Every value received is compared with the one its sender put in, computed here from the
! sender, the receiver and the element, so a run natively and one through the library check the
! same thing. With the argument "library", the library must have run every call; with "counted",
! it must have counted every call, whichever way it ran (auto mode leaves some to the MPI).
!
! Built once per binding: -DNBRCOMB_USE_MPI_F08 (use mpi_f08), -DNBRCOMB_USE_MPI (use mpi), or
! neither (include 'mpif.h').
#if defined(NBRCOMB_USE_MPI_F08)
#define HANDLE(kind) type(kind)
#define STATUSES(n) type(MPI_Status) :: statuses(n)
#define HANDLE_VALUE(h) h%MPI_VAL
#else
#define HANDLE(kind) integer
#define STATUSES(n) integer :: statuses(MPI_STATUS_SIZE, n)
#define HANDLE_VALUE(h) h
#endif

program neighbor_collectives
#if defined(NBRCOMB_USE_MPI_F08)
  use mpi_f08
#elif defined(NBRCOMB_USE_MPI)
  use mpi
#endif
  use, intrinsic :: iso_c_binding, only: c_int, c_long_long
  implicit none
#if !defined(NBRCOMB_USE_MPI_F08) && !defined(NBRCOMB_USE_MPI)
  include 'mpif.h'
#endif
  interface
    ! tests/fortran/library_calls.c: calls the library ran on comm, -1 without the library.
    function library_calls(comm) bind(C, name="nbrcomb_test_library_calls")
      import :: c_int, c_long_long
      integer(c_int), value :: comm
      integer(c_long_long) :: library_calls
    end function
    ! The calls it counted on comm, its own and those it left to the MPI.
    function counted_calls(comm) bind(C, name="nbrcomb_test_counted_calls")
      import :: c_int, c_long_long
      integer(c_int), value :: comm
      integer(c_long_long) :: counted_calls
    end function
  end interface

#if defined(NBRCOMB_PERSISTENT_COLLECTIVES)
  integer, parameter :: last_form = 3, collectives_per_comm = 12
#else
  integer, parameter :: last_form = 1, collectives_per_comm = 10
#endif
  integer :: ierr, rank, nprocs, k, form
  integer, allocatable :: sources(:), destinations(:), weights(:)
  HANDLE(MPI_Comm) :: graph, grid, ring, dup
  integer :: left, right, cart_send(2), cart_recv(2)
  logical :: through_library, counted
  character(len=16) :: argument

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call get_command_argument(1, argument)
  through_library = argument == 'library'
  counted = argument == 'counted'

  ! Every other rank, then this one (a self-loop): a complete graph, where pairs combine.
  allocate(sources(nprocs), destinations(nprocs), weights(nprocs))
  do k = 1, nprocs
    destinations(k) = mod(rank + k, nprocs)
    sources(k) = mod(rank - k + nprocs, nprocs)
    weights(k) = k
  end do

  do form = 1, 3
    select case (form)
    case (1)
      call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nprocs, sources, MPI_UNWEIGHTED, nprocs, destinations, &
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, .false., graph, ierr)
    case (2)
      call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nprocs, sources, weights, nprocs, destinations, weights, &
                                          MPI_INFO_NULL, .true., graph, ierr)
    case (3)
      call MPI_Dist_graph_create(MPI_COMM_WORLD, 1, [rank], [nprocs], destinations, weights, MPI_INFO_NULL, &
                                 .false., graph, ierr)
    end select
    call check(ierr == MPI_SUCCESS, 'graph constructor')
    call run_collectives(graph, 100 * form, form /= 1)
    if (through_library) then
      call check(library_calls(HANDLE_VALUE(graph)) == collectives_per_comm, 'library calls')
    end if
    if (counted) then
      call check(counted_calls(HANDLE_VALUE(graph)) == collectives_per_comm, 'calls counted')
    end if
    call MPI_Comm_free(graph, ierr)
  end do

  ! A Cartesian ring: a grid of nprocs x 1, periodic in its first dimension, reduced to that
  ! dimension by MPI_Cart_sub (ranks kept). The neighbors are the -1, then the +1 one; what goes to
  ! the -1 neighbor arrives in its +1 block, also where both are one process (1 or 2 ranks).
  call MPI_Cart_create(MPI_COMM_WORLD, 2, [nprocs, 1], [.true., .false.], .false., grid, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Cart_create')
  call MPI_Cart_sub(grid, [.true., .false.], ring, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Cart_sub')
  left = mod(rank - 1 + nprocs, nprocs)
  right = mod(rank + 1, nprocs)
  cart_send = [1000 * rank, 1000 * rank + 1]
  call MPI_Neighbor_alltoall(cart_send, 1, MPI_INTEGER, cart_recv, 1, MPI_INTEGER, ring, ierr)
  call check(ierr == MPI_SUCCESS, 'Cartesian alltoall')
  call check(cart_recv(1) == 1000 * left + 1 .and. cart_recv(2) == 1000 * right, 'Cartesian ring blocks')
  if (through_library) then
    call check(library_calls(HANDLE_VALUE(ring)) == 1, 'library calls on the Cartesian ring')
  end if
  ! A duplicate shares the topology and runs through the library too.
  call MPI_Comm_dup(ring, dup, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Comm_dup')
  cart_recv = -1
  call MPI_Neighbor_alltoall(cart_send, 1, MPI_INTEGER, cart_recv, 1, MPI_INTEGER, dup, ierr)
  call check(cart_recv(1) == 1000 * left + 1 .and. cart_recv(2) == 1000 * right, 'blocks on the duplicate')
  if (through_library) then
    call check(library_calls(HANDLE_VALUE(dup)) == 1, 'library calls on the duplicate')
  end if
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_free(ring, ierr)
  call MPI_Comm_free(grid, ierr)

  call MPI_Finalize(ierr)
  if (rank == 0) print '(a)', 'neighbor_collectives: all values as sent'

contains

  subroutine check(condition, what)
    logical, intent(in) :: condition
    character(len=*), intent(in) :: what
    if (.not. condition) then
      print '(a,i0,a,a)', 'rank ', rank, ': wrong: ', what
      error stop 1
    end if
  end subroutine

  ! What sender puts in element e of the block for receiver in call c (receiver -1: every
  ! receiver gets the same block).
  integer function value_of(c, sender, receiver, e)
    integer, intent(in) :: c, sender, receiver, e
    value_of = ((c * 64 + sender) * 64 + receiver + 1) * 64 + e
  end function

  ! Elements sender sends to receiver in the v and w collectives: 0 to 3.
  integer function count_of(sender, receiver)
    integer, intent(in) :: sender, receiver
    count_of = mod(sender + 2 * receiver, 4)
  end function

  ! Each collective blocking (form 0), then nonblocking (1) and completed in one of the ways a
  ! program does; alltoallv also persistent, started by MPI_Start (2), then by MPI_Startall (3).
  subroutine run_collectives(comm, c, weighted_graph)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: c
    logical, intent(in) :: weighted_graph
    integer, parameter :: block = 3, gap = 2
    integer :: indegree, outdegree, k, e, collective, form, call_id, index, outcount, indices(1)
    integer, allocatable :: ins(:), outs(:), in_weights(:), out_weights(:), gather_counts(:)
    integer, allocatable :: send(:), recv(:), expected(:), scounts(:), sdispls(:), rcounts(:), rdispls(:)
    integer(kind=MPI_ADDRESS_KIND), allocatable :: sbytes(:), rbytes(:)
    HANDLE(MPI_Datatype), allocatable :: stypes(:), rtypes(:)
    HANDLE(MPI_Request) :: requests(1)
    logical :: weighted, done
    STATUSES(1)
#if defined(NBRCOMB_USE_MPI_F08)
    type(MPI_Status) :: status
#else
    integer :: status(MPI_STATUS_SIZE)
#endif

    call MPI_Dist_graph_neighbors_count(comm, indegree, outdegree, weighted, ierr)
    call check(weighted .eqv. weighted_graph, 'weighted or MPI_UNWEIGHTED')
    allocate(ins(indegree), outs(outdegree), in_weights(indegree), out_weights(outdegree))
    call MPI_Dist_graph_neighbors(comm, indegree, ins, in_weights, outdegree, outs, out_weights, ierr)
    allocate(send(outdegree * (block + gap) + 1), recv(indegree * (block + gap) + 1), &
             expected(indegree * (block + gap) + 1))
    allocate(scounts(outdegree), sdispls(outdegree), rcounts(indegree), rdispls(indegree), gather_counts(indegree))
    allocate(sbytes(outdegree), rbytes(indegree), stypes(outdegree), rtypes(indegree))
    ! The v and w forms: blocks in reverse order, with gaps, the receive side shifted by one.
    do k = 1, outdegree
      scounts(k) = count_of(rank, outs(k))
      sdispls(k) = (outdegree - k) * (block + gap)
      sbytes(k) = sdispls(k) * 4
      stypes(k) = MPI_INTEGER
    end do
    do k = 1, indegree
      rcounts(k) = count_of(ins(k), rank)
      gather_counts(k) = count_of(ins(k), ins(k))
      rdispls(k) = (indegree - k) * (block + gap) + 1
      rbytes(k) = rdispls(k) * 4
      rtypes(k) = MPI_INTEGER
    end do

    do collective = 1, 5
      do form = 0, last_form
        if (form >= 2 .and. collective /= 4) cycle
        call_id = c + 4 * collective + form
        send = -2
        recv = -1
        expected = -1
        select case (collective)
        case (1, 2)  ! allgather (block elements), allgatherv (count_of(sender, sender) elements)
          do e = 1, block
            send(e) = value_of(call_id, rank, -1, e)
          end do
          do k = 1, indegree
            if (collective == 1) then
              do e = 1, block
                expected((k - 1) * block + e) = value_of(call_id, ins(k), -1, e)
              end do
            else
              do e = 1, gather_counts(k)
                expected(rdispls(k) + e) = value_of(call_id, ins(k), -1, e)
              end do
            end if
          end do
        case (3)  ! alltoall
          do k = 1, outdegree
            do e = 1, block
              send((k - 1) * block + e) = value_of(call_id, rank, outs(k), e)
            end do
          end do
          do k = 1, indegree
            do e = 1, block
              expected((k - 1) * block + e) = value_of(call_id, ins(k), rank, e)
            end do
          end do
        case (4, 5)  ! alltoallv, alltoallw
          do k = 1, outdegree
            do e = 1, scounts(k)
              send(sdispls(k) + e) = value_of(call_id, rank, outs(k), e)
            end do
          end do
          do k = 1, indegree
            do e = 1, rcounts(k)
              expected(rdispls(k) + e) = value_of(call_id, ins(k), rank, e)
            end do
          end do
        end select

        if (form == 0) then
          select case (collective)
          case (1)
            call MPI_Neighbor_allgather(send, block, MPI_INTEGER, recv, block, MPI_INTEGER, comm, ierr)
          case (2)
            call MPI_Neighbor_allgatherv(send, count_of(rank, rank), MPI_INTEGER, recv, gather_counts, rdispls, &
                                         MPI_INTEGER, comm, ierr)
          case (3)
            call MPI_Neighbor_alltoall(send, block, MPI_INTEGER, recv, block, MPI_INTEGER, comm, ierr)
          case (4)
            call MPI_Neighbor_alltoallv(send, scounts, sdispls, MPI_INTEGER, recv, rcounts, rdispls, MPI_INTEGER, &
                                        comm, ierr)
          case (5)
            call MPI_Neighbor_alltoallw(send, scounts, sbytes, stypes, recv, rcounts, rbytes, rtypes, comm, ierr)
          end select
          call check(ierr == MPI_SUCCESS, 'blocking collective')
        else if (form == 1) then
          select case (collective)
          case (1)
            call MPI_Ineighbor_allgather(send, block, MPI_INTEGER, recv, block, MPI_INTEGER, comm, requests(1), &
                                         ierr)
            call MPI_Wait(requests(1), status, ierr)
          case (2)
            call MPI_Ineighbor_allgatherv(send, count_of(rank, rank), MPI_INTEGER, recv, gather_counts, rdispls, &
                                          MPI_INTEGER, comm, requests(1), ierr)
            call MPI_Waitall(1, requests, statuses, ierr)
          case (3)
            call MPI_Ineighbor_alltoall(send, block, MPI_INTEGER, recv, block, MPI_INTEGER, comm, requests(1), ierr)
            ! Fortran counts from 1; MPICH 4.0's own mpi_f08 binding of MPI_Waitany says 0 (fixed
            ! in 4.1), so indices are checked only through the library.
            outcount = 0
            do while (outcount == 0)
              call MPI_Waitsome(1, requests, outcount, indices, MPI_STATUSES_IGNORE, ierr)
            end do
            call check(outcount == 1 .and. (indices(1) == 1 .or. .not. through_library), 'MPI_Waitsome indices')
          case (4)
            call MPI_Ineighbor_alltoallv(send, scounts, sdispls, MPI_INTEGER, recv, rcounts, rdispls, MPI_INTEGER, &
                                         comm, requests(1), ierr)
            done = .false.
            do while (.not. done)
              call MPI_Test(requests(1), done, MPI_STATUS_IGNORE, ierr)
            end do
          case (5)
            call MPI_Ineighbor_alltoallw(send, scounts, sbytes, stypes, recv, rcounts, rbytes, rtypes, comm, &
                                         requests(1), ierr)
            call MPI_Waitany(1, requests, index, status, ierr)
            call check(index == 1 .or. .not. through_library, 'MPI_Waitany index')
          end select
          call check(ierr == MPI_SUCCESS, 'nonblocking collective')
          call check(requests(1) == MPI_REQUEST_NULL, 'request freed')
#if defined(NBRCOMB_PERSISTENT_COLLECTIVES)
        else
          if (form == 2) then
            call MPI_Neighbor_alltoallv_init(send, scounts, sdispls, MPI_INTEGER, recv, rcounts, rdispls, &
                                             MPI_INTEGER, comm, MPI_INFO_NULL, requests(1), ierr)
            call MPI_Start(requests(1), ierr)
          else
            call MPI_Startall(1, requests, ierr)
          end if
          call MPI_Wait(requests(1), status, ierr)
          call check(ierr == MPI_SUCCESS, 'persistent collective')
          call check(requests(1) /= MPI_REQUEST_NULL, 'persistent request kept')
          if (form == last_form) call MPI_Request_free(requests(1), ierr)
#endif
        end if
        call check(all(recv == expected), 'received values')
      end do
    end do
  end subroutine

end program
