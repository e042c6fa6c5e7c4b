a
{
	{ map $lightmap blendfunc filter rgbGen identity }
	{ clampmap x.tga tcMod stretch sin 1.2 .8 0 1.5 tcmod rotate 30
	  alphaGen wave sin 0 1 0 1 depthFunc equal alphaFunc GT0 }
	cull twosided sort additive polygonOffset
	deformVertexes move 0 0 1 sin 0 3 0 .25
	tessSize 64 q3map_sunExt 1 1 1 80 30 60 2 16
}
"q n" { portal { map $whiteimage rgbGen const ( 1 0 0 ) tcGen vector ( 1 0 0 ) ( 0 1 0 ) } }
