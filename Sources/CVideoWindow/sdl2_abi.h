// The part of SDL 2's stable interface the window uses, as SDL 2.0 documents it: its functions are
// found by name in libSDL2-2.0.so.0 at run time, so that building needs no SDL development package.
#ifndef CVW_SDL2_ABI_H
#define CVW_SDL2_ABI_H
#include <stdint.h>

typedef struct SDL_Window SDL_Window;
typedef struct SDL_Renderer SDL_Renderer;
typedef struct SDL_Texture SDL_Texture;
typedef struct SDL_Rect { int x, y, w, h; } SDL_Rect;
typedef struct SDL_RendererInfo {
    const char *name;
    uint32_t flags, num_texture_formats, texture_formats[16];
    int max_texture_width, max_texture_height;
} SDL_RendererInfo;

/// SDL_WindowEvent, SDL_KeyboardEvent, SDL_MouseButtonEvent and SDL_UserEvent as laid out in SDL_Event (56 bytes).
typedef union SDL_Event {
    uint32_t type;
    struct { uint32_t type, timestamp, windowID; uint8_t event, padding1, padding2, padding3; int32_t data1, data2; } window;
    struct {
        uint32_t type, timestamp, windowID;
        uint8_t state, repeat, padding2, padding3;
        struct { int32_t scancode, sym; uint16_t mod; uint32_t unused; } keysym;
    } key;
    struct { uint32_t type, timestamp, windowID, which; uint8_t button, state, clicks, padding1; int32_t x, y; } button;
    struct { uint32_t type, timestamp, windowID; int32_t code; void *data1, *data2; } user;
    uint8_t padding[56];
} SDL_Event;

enum {
    SDL_INIT_VIDEO = 0x20,
    SDL_QUIT = 0x100,
    SDL_WINDOWEVENT = 0x200,
    SDL_KEYDOWN = 0x300,
    SDL_MOUSEBUTTONDOWN = 0x401,
    SDL_USEREVENT = 0x8000,
    SDL_WINDOWEVENT_EXPOSED = 3,
    SDL_WINDOWEVENT_SIZE_CHANGED = 6,
    SDL_WINDOWEVENT_CLOSE = 14,
    SDL_WINDOW_FULLSCREEN_DESKTOP = 0x1001,
    SDL_WINDOW_SHOWN = 0x4,
    SDL_WINDOW_RESIZABLE = 0x20,
    SDL_WINDOWPOS_UNDEFINED = 0x1FFF0000,
    SDL_RENDERER_SOFTWARE = 0x1,
    SDL_RENDERER_ACCELERATED = 0x2,
    SDL_RENDERER_PRESENTVSYNC = 0x4,
    SDL_TEXTUREACCESS_STREAMING = 1,
    SDL_BLENDMODE_BLEND = 1,
};
/// B, G, R, A in memory on a little-endian machine.
#define SDL_PIXELFORMAT_ARGB8888 0x16362004u

#define CVW_SDL_FUNCTIONS(F) \
    F(int, SDL_Init, (uint32_t flags)) \
    F(void, SDL_QuitSubSystem, (uint32_t flags)) \
    F(const char *, SDL_GetError, (void)) \
    F(int, SDL_SetHint, (const char *name, const char *value)) \
    F(int, SDL_GetDisplayUsableBounds, (int index, SDL_Rect *rect)) \
    F(SDL_Window *, SDL_CreateWindow, (const char *title, int x, int y, int w, int h, uint32_t flags)) \
    F(void, SDL_DestroyWindow, (SDL_Window *window)) \
    F(uint32_t, SDL_GetWindowID, (SDL_Window *window)) \
    F(void, SDL_SetWindowTitle, (SDL_Window *window, const char *title)) \
    F(int, SDL_SetWindowFullscreen, (SDL_Window *window, uint32_t flags)) \
    F(SDL_Renderer *, SDL_CreateRenderer, (SDL_Window *window, int index, uint32_t flags)) \
    F(void, SDL_DestroyRenderer, (SDL_Renderer *renderer)) \
    F(int, SDL_GetRendererInfo, (SDL_Renderer *renderer, SDL_RendererInfo *info)) \
    F(void *, SDL_GL_GetProcAddress, (const char *name)) \
    F(int, SDL_GetRendererOutputSize, (SDL_Renderer *renderer, int *w, int *h)) \
    F(SDL_Texture *, SDL_CreateTexture, (SDL_Renderer *renderer, uint32_t format, int access, int w, int h)) \
    F(void, SDL_DestroyTexture, (SDL_Texture *texture)) \
    F(int, SDL_SetTextureBlendMode, (SDL_Texture *texture, int mode)) \
    F(int, SDL_UpdateTexture, (SDL_Texture *texture, const SDL_Rect *rect, const void *pixels, int pitch)) \
    F(int, SDL_SetRenderDrawColor, (SDL_Renderer *renderer, uint8_t r, uint8_t g, uint8_t b, uint8_t a)) \
    F(int, SDL_RenderClear, (SDL_Renderer *renderer)) \
    F(int, SDL_RenderCopy, (SDL_Renderer *renderer, SDL_Texture *texture, const SDL_Rect *source, const SDL_Rect *target)) \
    F(void, SDL_RenderPresent, (SDL_Renderer *renderer)) \
    F(int, SDL_WaitEventTimeout, (SDL_Event *event, int timeout)) \
    F(int, SDL_PushEvent, (SDL_Event *event))
#endif
