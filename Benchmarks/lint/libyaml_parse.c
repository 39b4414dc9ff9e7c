/* The peer: libyaml alone parsing a file through its event API, as any loader must.
 * Reads the whole file, then pulls every event and counts scalars. */
#include <yaml.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: libyaml_parse FILE\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(size);
    if (fread(buf, 1, size, f) != (size_t)size) { perror("read"); return 2; }
    fclose(f);
    yaml_parser_t parser;
    yaml_event_t event;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, buf, size);
    long scalars = 0;
    for (;;) {
        if (!yaml_parser_parse(&parser, &event)) { fprintf(stderr, "error: %s\n", parser.problem); return 1; }
        if (event.type == YAML_SCALAR_EVENT) scalars++;
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        if (done) break;
    }
    yaml_parser_delete(&parser);
    free(buf);
    printf("%ld scalars\n", scalars);
    return 0;
}
