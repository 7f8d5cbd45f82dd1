#version 450
// A private array of 100 floats indexed at run time: scratch memory (the PS ring;
// docs/compiler.md "Scratch").
layout(location = 0) flat in int index;
layout(location = 0) out vec4 colour;
void main()
{
    float table[100];
    for (int k = 0; k < 100; k++)
        table[k] = float(k) * 0.5;
    colour = vec4(table[index % 100]);
}
