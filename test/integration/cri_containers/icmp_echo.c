/* One ICMP echo to an IPv4 address through an unprivileged ICMP socket (SOCK_DGRAM, IPPROTO_ICMP),
 * as iputils ping does without CAP_NET_RAW: the kernel allows it only to groups in
 * net.ipv4.ping_group_range. busybox's ping only knows raw sockets, hence this. Prints what happened;
 * exit 0 on a reply, 1 on an error, 2 on usage. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: icmp-echo IPV4\n");
    return 2;
  }
  struct sockaddr_in to = {.sin_family = AF_INET};
  if (inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) {
    fprintf(stderr, "icmp-echo: bad address %s\n", argv[1]);
    return 2;
  }
  int fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
  if (fd < 0) {
    printf("socket: %s\n", strerror(errno));
    return 1;
  }
  struct timeval timeout = {.tv_sec = 5};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  struct icmphdr request = {.type = ICMP_ECHO};
  request.un.echo.sequence = htons(1);
  if (sendto(fd, &request, sizeof request, 0, (struct sockaddr *)&to, sizeof to) < 0) {
    printf("sendto: %s\n", strerror(errno));
    return 1;
  }
  struct icmphdr reply;
  if (recv(fd, &reply, sizeof reply, 0) < (ssize_t)sizeof reply) {
    printf("recv: %s\n", strerror(errno));
    return 1;
  }
  if (reply.type != ICMP_ECHOREPLY) {
    printf("unexpected ICMP type %d\n", reply.type);
    return 1;
  }
  printf("echo reply from %s\n", argv[1]);
  return 0;
}
